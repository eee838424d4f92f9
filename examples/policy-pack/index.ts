// A CrossGuard policy pack for nsp stacks: `pulumi preview --policy-pack <this directory>`.
// Every policy is mandatory (a violation fails the preview) unless the policy configuration
// (`--policy-pack-config`) lowers it; see README.md.
import { PolicyPack, type ReportViolation, type StackValidationArgs } from "@pulumi/policy";
import {
  RECORD,
  SECURITY_RULE,
  blockAllItem,
  proxiedRecordsWithoutWaf,
  ttlProblem,
  zonesWithoutDnssec,
  type StackResource,
  type TtlBounds,
} from "./rules";

/** Stack policies see PolicyResources; the rules read only the part StackResource names. */
const stackResources = (args: StackValidationArgs): StackResource[] => args.resources;

new PolicyPack("nsp-guardrails", {
  enforcementLevel: "mandatory",
  policies: [
    {
      name: "nsp-proxied-record-needs-waf",
      description:
        "A DNS record routed through the edge proxy (proxied: true) needs the nsp:cdn:SiteSettings of its " +
        'hostname in the same stack, with waf.enabled true and waf.mode not "log".',
      validateStack: (args: StackValidationArgs, reportViolation: ReportViolation) => {
        for (const finding of proxiedRecordsWithoutWaf(stackResources(args)))
          reportViolation(finding.message, finding.resource.urn);
      },
    },
    {
      name: "nsp-record-ttl-bounds",
      description:
        "Every DNS record's ttl (3600 when unset) lies between minTtl and maxTtl seconds of the policy configuration.",
      configSchema: {
        properties: {
          minTtl: { type: "integer", minimum: 60, default: 300 },
          maxTtl: { type: "integer", maximum: 86400, default: 86400 },
        },
      },
      validateResource: (args, reportViolation) => {
        if (args.type !== RECORD) return;
        const problem = ttlProblem(args.props.ttl, args.getConfig<TtlBounds>());
        if (problem) reportViolation(`record "${args.name}": ${problem}`);
      },
    },
    {
      name: "nsp-zone-dnssec",
      description:
        "Every nsp:dns:Zone is signed by an nsp:dns:ZoneDnssec of the same stack whose zoneId is that zone's " +
        "id and whose enabled is not false.",
      validateStack: (args: StackValidationArgs, reportViolation: ReportViolation) => {
        for (const zone of zonesWithoutDnssec(stackResources(args))) {
          reportViolation(
            `zone "${zone.name}" has no enabled nsp:dns:ZoneDnssec in this stack (add one with zoneId: the zone's id)`,
            zone.urn,
          );
        }
      },
    },
    {
      name: "nsp-no-block-all-security-rule",
      description:
        "No enabled nsp:security:Rule blocks every client: action block with field ip, op in and a prefix of " +
        "length 0 (0.0.0.0/0, ::/0).",
      validateResource: (args, reportViolation) => {
        if (args.type !== SECURITY_RULE) return;
        const item = blockAllItem(args.props);
        if (item)
          reportViolation(`security rule "${args.name}" blocks every client: ip in "${item}" matches every address`);
      },
    },
  ],
});
