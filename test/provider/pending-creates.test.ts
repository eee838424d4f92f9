// nsp-discover --pending-creates decides each create a killed run left pending, against the
// emulator over HTTP: the one untracked object with the create's natural key is adopted, an
// object the state tracks or another pending create took is not, a key several untracked objects
// share is reported, a create with no object never landed, and a create of an object its inputs
// name (settings of a parent) is repeatable.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ApiClient } from "../../provider/src/client";
import {
  adoptIntoDeployment,
  clientFromSettings,
  resolvePendingCreates,
  type ExportedDeployment,
} from "../../provider/src/discover/pending-creates";
import { resources as definitions } from "../../provider/src/modules/all-definitions";
import { SECRET_SIG } from "../helpers/plugin";
import { useProvider } from "../helpers/use-provider";

const { control, emulator } = useProvider({ emulator: { rateLimitPerMinute: 0 }, plugin: false });
const clients: ApiClient[] = [];
afterAll(() => Promise.all(clients.map((c) => c.close())));

const STACK = "urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev";
const PROVIDER = "urn:pulumi:dev::p::pulumi:providers:nsp::default";
const urn = (type: string, name: string) => `urn:pulumi:dev::p::${type}::${name}`;
const pending = (type: string, name: string, inputs: Record<string, unknown>) => ({
  type: "creating",
  resource: { urn: urn(type, name), type, custom: true, parent: STACK, provider: `${PROVIDER}::prov-1`, inputs },
});

let exported: ExportedDeployment;
let ids: Record<string, string>;

beforeAll(async () => {
  const domain = await control.post<{ id: number }>("/mail/domains", { name: "pending.example", mode: "both" });
  const tracked = await control.post<{ id: string }>(`/mail/domains/${domain.id}/mailboxes`, {
    domain_id: domain.id,
    local: "tracked",
  });
  const landed = await control.post<{ id: string }>(`/mail/domains/${domain.id}/mailboxes`, {
    domain_id: domain.id,
    local: "landed",
  });
  const hooks = [];
  for (const url of [
    "https://hooks.example.com/twice",
    "https://hooks.example.com/twice",
    "https://hooks.example.com/once",
  ])
    hooks.push(await control.post<{ id: number }>("/webhooks", { url, events: ["ping"] }));
  const ca = await control.post<{ id: number }>("/rpki/cas", { handle: "pending-ca", asns: [64500] });
  ids = {
    domain: String(domain.id),
    tracked: tracked.id,
    landed: landed.id,
    once: String(hooks[2]!.id),
    ca: String(ca.id),
  };
  // As `pulumi stack export --show-secrets` writes it: the provider's token is a revealed secret.
  exported = {
    deployment: {
      resources: [
        { urn: STACK, type: "pulumi:pulumi:Stack" },
        {
          urn: PROVIDER,
          type: "pulumi:providers:nsp",
          id: "prov-1",
          inputs: {
            apiToken: {
              [Object.keys(SECRET_SIG)[0]!]: Object.values(SECRET_SIG)[0],
              plaintext: JSON.stringify(emulator.token),
            },
            baseUrl: emulator.baseUrl,
            version: "0.1.0",
          },
        },
        {
          urn: urn("nsp:mail:Domain", "domain"),
          type: "nsp:mail:Domain",
          id: ids.domain,
          inputs: { name: "pending.example", mode: "both" },
        },
        {
          urn: urn("nsp:mail:Mailbox", "tracked"),
          type: "nsp:mail:Mailbox",
          id: ids.tracked,
          inputs: { domainId: ids.domain, local: "tracked" },
        },
      ],
      pending_operations: [
        pending("nsp:mail:Mailbox", "landed", { domainId: ids.domain, local: "landed" }),
        // Its key is held by the tracked mailbox only: that object is another resource's.
        pending("nsp:mail:Mailbox", "tracked-twin", { domainId: ids.domain, local: "tracked" }),
        pending("nsp:mail:Mailbox", "never", { domainId: ids.domain, local: "never" }),
        pending("nsp:index:Webhook", "twice", { url: "https://hooks.example.com/twice", events: ["ping"] }),
        // Two creates, one object: the first adopts it, the second never landed.
        pending("nsp:index:Webhook", "once-a", { url: "https://hooks.example.com/once", events: ["ping"] }),
        pending("nsp:index:Webhook", "once-b", { url: "https://hooks.example.com/once", events: ["ping"] }),
        pending("nsp:rpki:Ca", "ca", { handle: "pending-ca", asns: [64500] }),
        // DNSSEC of a zone is a write to the zone: repeating it makes nothing twice.
        pending("nsp:dns:ZoneDnssec", "dnssec", { zoneId: "42", enabled: true }),
        // An extension whose number the program leaves to the API has no key to find it by.
        pending("nsp:vgate:Extension", "ext", { pbxId: "pbx_0123456789ab" }),
        pending("aws:s3:Bucket", "bucket", { bucket: "b" }),
      ],
    },
  };
});

it("adopts only the one untracked object with the key, and reports what it cannot decide", async () => {
  const decided = await resolvePendingCreates(exported, definitions, (settings) => {
    const client = clientFromSettings(settings, "pending-creates-test", () => {});
    clients.push(client);
    return client;
  });
  expect(decided.map((d) => [d.urn.split("::").pop(), d.outcome, d.id])).toEqual([
    ["landed", "adopt", `${ids.domain}/${ids.landed}`],
    ["tracked-twin", "absent", undefined],
    ["never", "absent", undefined],
    ["twice", "ambiguous", undefined],
    ["once-a", "adopt", ids.once],
    ["once-b", "absent", undefined],
    ["ca", "adopt", ids.ca],
    ["dnssec", "repeatable", undefined],
    ["ext", "unidentifiable", undefined],
    ["bucket", "foreign", undefined],
  ]);
  expect(decided.find((d) => d.outcome === "ambiguous")!.detail).toMatch(
    /2 untracked objects have url "https:\/\/hooks\.example\.com\/twice"/,
  );
  // One provider configuration, one client.
  expect(clients).toHaveLength(1);

  // The adopted creates become resources with their ids, after the ones the state held.
  const edited = adoptIntoDeployment(exported, decided) as ExportedDeployment;
  expect(edited.deployment.resources!.slice(4).map((r) => [r.urn.split("::").pop(), r.id])).toEqual([
    ["landed", `${ids.domain}/${ids.landed}`],
    ["once-a", ids.once],
    ["ca", ids.ca],
  ]);
  expect(edited.deployment.resources![4]).toMatchObject({
    type: "nsp:mail:Mailbox",
    parent: STACK,
    provider: `${PROVIDER}::prov-1`,
    inputs: { local: "landed" },
    outputs: { local: "landed" },
  });
  expect(edited.deployment.pending_operations!.map((op) => op.resource.urn.split("::").pop())).toEqual([
    "tracked-twin",
    "never",
    "twice",
    "once-b",
    "dnssec",
    "ext",
    "bucket",
  ]);
});
