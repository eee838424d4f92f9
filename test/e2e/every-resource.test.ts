// One instance of every resource type of the provider in one stack, driven by the real pulumi CLI
// against the emulator: up, then preview, refresh and preview again must all find nothing to do,
// and destroy must leave the account without what the stack made. Each object sets the optional
// inputs (nested objects, lists, maps) its written row or its kind's example sets, so that they go
// through the API and back. The program is Pulumi YAML, written from the table in
// every-resource-table.ts.
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resources as registered } from "../../provider/src/modules/all-definitions";
import type { EmulatorControl } from "../helpers/emulator-control";
import { lastJson, pulumiDo, ROOT, Stack, startEmulatorProcess, type EmulatorProcess } from "./harness/pulumi-cli";
import type { Obj, Row } from "./harness/every-resource-table";
import { everyResourceRows, programOf, upEveryResource } from "./harness/every-resource-stack";

const execFileAsync = promisify(execFile);
let emulator: EmulatorProcess;
let api: EmulatorControl;
let stack: Stack;
let rows: Row[];
let before: Obj;

/**
 * What a resource's delete leaves in the account because the API cannot delete it (each
 * resource's description says so): singletons keep their last settings, the exchange keeps the
 * membership, a withdrawn consent stays listed as revoked, a VM keeps its power state.
 */
const KEPT_ON_DELETE: Record<string, string> = {
  "/org": "nsp:org:Organization and nsp:org:Apps only forget the organisation",
  "/meet/settings": "nsp:meet:Settings leaves the settings as they are",
  "/sgate/numbers": "nsp:sgate:NumberSettings leaves the number's settings as they are",
  "/sgate/consents": "nsp:sgate:Consent is withdrawn and kept as revoked",
  "/ix/overview": "nsp:ix:Member: the API has no way to delete a membership",
  "/vms": "nsp:compute:VmPower leaves the VM as it is",
};

/** Every list and singleton the stack's resources live in, as the API shows them. */
async function snapshot(): Promise<Obj> {
  const resolver = String((await api.services()).find((s) => s.type === "resolver")!.id);
  const paths = [
    "/org",
    "/org/members",
    "/partner/subjects",
    "/registry/link",
    "/registry/domains",
    "/vms",
    "/stream/streams",
    "/vod/assets",
    "/vod/keys",
    "/vod/webhooks",
    "/dns/zones",
    "/dns/ranges",
    "/rpki/cas",
    "/cdn/sites",
    "/security/rules",
    "/link/tunnels",
    "/pages/projects",
    "/vgate/pbx",
    "/mail/servers",
    "/mail/domains",
    "/mail/destinations",
    "/sgate/numbers",
    "/sgate/brands",
    "/sgate/campaigns",
    "/sgate/senders",
    "/sgate/templates",
    "/sgate/consents",
    "/sgate/broadcasts",
    "/verify/sites",
    "/webhooks",
    `/services/${resolver}/filter`,
    `/services/${resolver}/policy`,
    `/services/${resolver}/clients`,
    "/meet/settings",
    "/voice/numbers",
    "/talk/rooms",
    "/rtc/rooms",
    "/storage/destinations",
    "/ix/overview",
  ];
  const out: Obj = {};
  // An absent singleton (no registry link yet) is a 404, kept as its message to compare too.
  for (const path of paths) out[path] = await api.get(path).catch((e: Error) => e.message);
  return out;
}

beforeAll(async () => {
  emulator = await startEmulatorProcess();
  api = emulator.control();
  before = await snapshot();
  rows = await everyResourceRows(api);
  stack = await Stack.init(Stack.yamlProject(programOf(rows)));
  await stack.useAccount(emulator.baseUrl, api.token);
});

afterAll(async () => {
  stack?.cleanup();
  await emulator?.stop();
});

const SECRET_SIG = "4dabf18193072939515e22adb298388d";
/** Indices in stack.log of the runs that show secrets on purpose. */
const revealing = new Set<number>();

/** The plaintext of every secret in the stack's resource outputs, by `<name>.<path>`. */
async function secretOutputs(): Promise<Record<string, unknown>> {
  const masked = await stack.exportState();
  revealing.add(stack.log.length);
  const shown = JSON.parse((await stack.run(["stack", "export", "--show-secrets"])).stdout) as typeof masked;
  const out: Record<string, unknown> = {};
  const walk = (path: string, m: unknown, v: unknown) => {
    if (m && typeof m === "object" && SECRET_SIG in m) {
      const plain =
        v && typeof v === "object" && "plaintext" in v ? JSON.parse((v as { plaintext: string }).plaintext) : v;
      out[path] = plain;
    } else if (m && typeof m === "object") {
      for (const [k, x] of Object.entries(m)) walk(`${path}.${k}`, x, (v as Obj | undefined)?.[k]);
    }
  };
  masked.deployment.resources.forEach((r, i) => {
    if (r.type.startsWith("nsp:")) walk(r.urn.split("::").pop()!, r.outputs, shown.deployment.resources[i]!.outputs);
  });
  return out;
}

/** The strings inside a value long enough to be told apart from ordinary text (short PINs are not). */
function stringLeaves(value: unknown): string[] {
  if (typeof value === "string") return value.length >= 8 ? [value] : [];
  if (value && typeof value === "object") return Object.values(value).flatMap(stringLeaves);
  return [];
}

describe("one instance of every resource type, through the API and back", () => {
  it("the table holds every registered resource type", () => {
    const inTable = new Set(rows.map((r) => r.type));
    expect(registered.map((r) => r.token).filter((t) => !inTable.has(t))).toEqual([]);
    expect(inTable.size).toBe(registered.length);
  });

  it("up, then preview, refresh and preview again find no change", async () => {
    await upEveryResource(stack, api);
    await stack.preview(["--expect-no-changes", "--diff"]);
    const secretsAfterUp = await secretOutputs();
    await stack.refresh(["--expect-no-changes"]);
    await stack.preview(["--expect-no-changes", "--diff"]);

    // Every secret (given or shown once by the API) survives the refresh and is nowhere in plaintext.
    const secretsAfterRefresh = await secretOutputs();
    expect(secretsAfterRefresh).toEqual(secretsAfterUp);
    // The inputs given as secrets and every one-time secret the API shows (see the API README), of the
    // written rows and of the objects taken from examples (named `<module>_<Name>_<name>`).
    expect(Object.keys(secretsAfterUp).sort()).toEqual(
      [
        "channel.streamKey",
        "ddnsToken.token",
        "ext1.sipPassword",
        "ext2.sipPassword",
        "mailServer.installCommand",
        "pbx.sipPasswords",
        "registryLink.keySecret",
        "rtcRoom.passcode",
        "site.keyPem",
        "talkRoom.passcode",
        "transfer.tsigKey",
        "trunk.password",
        "tunnel.credential",
        "verifySite.secret",
        "vmPower.rootPassword",
        "webhook.secret",
        "mail_AppPassword_phone.password",
        "storage_Destination_recordings.secretKey",
        "vgate_OutboundRoute_carrier.password",
        "vgate_OutboundRoute_pbx.sipPasswords",
        "vgate_NumberFlow_pbx.sipPasswords",
        "vgate_NumberFlow_reception.sipPassword",
        "vgate_NumberFlow_sales.sipPassword",
        "vgate_TimeCondition_pbx.sipPasswords",
        "vod_SigningKey_player.secret",
        "voice_NumberEndpoint_pbx.sipPasswords",
        "voice_NumberEndpoint_sales.sipPassword",
      ].sort(),
    );
    const seen = [
      stack.artefacts(),
      ...stack.log.filter((_, i) => !revealing.has(i)).map((r) => r.stdout + r.stderr),
    ].join("\n");
    expect(seen).not.toContain(api.token);
    for (const [path, value] of Object.entries(secretsAfterUp))
      for (const leaf of stringLeaves(value)) expect(seen.includes(leaf), `${path} in plaintext`).toBe(false);
    const state = await stack.exportState();
    const custom = state.deployment.resources.filter(
      (r) => r.type.startsWith("nsp:") && !r.type.startsWith("pulumi:providers:"),
    );
    expect(custom.map((r) => r.type).sort()).toEqual(rows.map((r) => r.type).sort());
  });

  it("pulumi do <kind> list finds each object nsp-discover finds, for every listable kind, configured from NSP_* alone", async () => {
    const env = { ...stack.env, NSP_API_TOKEN: api.token, NSP_BASE_URL: emulator.baseUrl };
    const discovered = await execFileAsync(process.execPath, [join(ROOT, "bin/nsp-discover")], {
      env,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    const found = (JSON.parse(discovered.stdout) as { resources: { type: string; id: string }[] }).resources;
    const listable = registered.filter((r) => r.list);
    // The stack holds one object of each kind; nsp-discover leaves out only those another resource owns.
    expect(listable.filter((r) => !found.some((f) => f.type === r.token)).map((r) => r.token)).toEqual([
      "nsp:cdn:Site",
    ]);
    const cwd = mkdtempSync(join(tmpdir(), "nsp-e2e-do-list-"));
    // One list per kind and parent, four CLIs at a time: each starts the plugin, checks the token and reads one page.
    const groups = new Map<string, { type: string; flags: string[]; ids: string[] }>();
    for (const f of found) {
      const def = listable.find((r) => r.token === f.type);
      if (!def) continue;
      const parent = def.list!.parent;
      const flags =
        parent && def.importId.includes("/")
          ? [`--${parent.input.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase()}`, f.id.split("/")[0]!]
          : [];
      const key = [f.type, ...flags].join(" ");
      (groups.get(key) ?? groups.set(key, { type: f.type, flags, ids: [] }).get(key)!).ids.push(f.id);
    }
    const queue = [...groups.values()];
    const missing: string[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const listed = new Set(
            lastJson<{ id: string }[]>(
              (await pulumiDo(["--output", "json", next.type, "list", ...next.flags, "--all"], { cwd, env })).stdout,
            ).map((l) => l.id),
          );
          missing.push(...next.ids.filter((id) => !listed.has(id)).map((id) => `${next!.type} ${id}`));
        }
      }),
    );
    console.log(
      `pulumi do list: ${groups.size} lists for ` +
        `${[...groups.values()].reduce((n, g) => n + g.ids.length, 0)} discovered objects of ` +
        `${new Set(found.map((f) => f.type)).size} kinds`,
    );
    expect(missing).toEqual([]);
  });

  it("each resource's id has the form its page's Import section says `pulumi stack --show-ids` prints", async () => {
    const definitions = new Map(registered.map((d) => [d.token, d]));
    const state = await stack.exportState();
    const wrong: string[] = [];
    for (const r of state.deployment.resources.filter((r) => r.type.startsWith("nsp:"))) {
      const definition = definitions.get(r.type)!;
      // The form without its optional parts (`<zoneId>[/<name>...]`): each <part> is one segment.
      const form = (definition.shownId?.form ?? definition.importId).replace(/\[.*\]/, "");
      const pattern = form
        .split(/(<[^>]+>)/)
        .map((part) => (part.startsWith("<") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
        .join("");
      if (!new RegExp(`^${pattern}$`).test(r.id ?? "")) wrong.push(`${r.type}: id ${r.id} is not of the form ${form}`);
    }
    expect(wrong).toEqual([]);
  });

  it("destroy leaves the account as it was, but for what the API keeps by design", async () => {
    await stack.destroy();
    const after = await snapshot();
    for (const path of Object.keys(before)) {
      if (path in KEPT_ON_DELETE) continue;
      expect(after[path], path).toEqual(before[path]);
    }
    const consents = (after["/sgate/consents"] as { data: { status: string }[] }).data;
    expect(consents.map((c) => c.status)).toEqual(["revoked"]);
  });
});
