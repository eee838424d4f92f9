// What the tests of the every-resource stack share (every-resource.test.ts, upgrade.test.ts):
// the table's values from a running emulator, the YAML program, and the public DNS record the
// edge site needs while the stack comes up.
import { join } from "node:path";
import { issueCertificate, newCaKey } from "../../../emulator/src/cdn/x509";
import type { EmulatorControl } from "../../helpers/emulator-control";
import { ROOT, type RunResult, type Stack } from "./pulumi-cli";
import { NAME_SERVERS, SITE_HOST, table, VERIFIED_ZONE, type Obj, type Row } from "./every-resource-table";

/**
 * The table's rows for the emulator's account, whose public DNS then delegates the verified zone
 * to the service's name servers, as the registrar would.
 */
export async function everyResourceRows(api: EmulatorControl): Promise<Row[]> {
  const services = await api.services();
  const serviceOf = (type: string) => String(services.find((s) => s.type === type)!.id);
  const vms = await api.list<{ id: number }>("/vms");
  const pops = await api.list<{ id: number }>("/link/pops");
  const cert = issueCertificate(newCaKey(), [SITE_HOST], Date.now());
  const rows = table({
    authDns: serviceOf("auth_dns"),
    resolver: serviceOf("resolver"),
    cdn: serviceOf("cdn"),
    vmId: String(vms[0]!.id),
    popA: String(pops[0]!.id),
    popB: String(pops[1]!.id),
    certPem: cert.certificate,
    keyPem: cert.private_key,
  });
  await api.setPublicDns(VERIFIED_ZONE, NAME_SERVERS);
  return rows;
}

/**
 * The rows as a Pulumi YAML program. The plugin is this tree's unless `installedPlugin` is set,
 * in which case the engine takes the one installed in PULUMI_HOME.
 */
export function programOf(rows: Row[], opts: { installedPlugin?: boolean } = {}): string {
  const resources: Obj = {};
  for (const r of rows)
    resources[r.name] = {
      type: r.type,
      properties: r.properties,
      ...(r.dependsOn ? { options: { dependsOn: r.dependsOn.map((d) => `\${${d}}`) } } : {}),
    };
  const plugins = opts.installedPlugin ? {} : { plugins: { providers: [{ name: "nsp", path: join(ROOT, "bin") }] } };
  // YAML is a superset of JSON: the program is written as JSON so that no value needs quoting.
  return JSON.stringify({ name: "nsp-every-resource", runtime: "yaml", ...plugins, resources }, null, 2);
}

/** Sets the public CNAME of the edge site once the API has given it a target, as its owner would. */
async function pointSiteWhenCreated(api: EmulatorControl, done: () => boolean): Promise<void> {
  while (!done()) {
    const site = (await api.list<{ hostname: string; target: string | null }>("/cdn/sites")).find(
      (s) => s.hostname === SITE_HOST,
    );
    if (site?.target) {
      await fetch(`${api.root}/_emulator/public-dns`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: SITE_HOST, cname: site.target }),
      });
      return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** `pulumi up` of the stack, with the site's owner pointing its CNAME at the edge meanwhile. */
export async function upEveryResource(stack: Stack, api: EmulatorControl): Promise<RunResult> {
  let finished = false;
  const pointing = pointSiteWhenCreated(api, () => finished);
  try {
    return await stack.up();
  } finally {
    finished = true;
    await pointing;
  }
}
