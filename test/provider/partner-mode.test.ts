// Partner mode (`partnerSubject`): the plugin acts for one managed customer with credentials it
// mints from the partner's token, driven over gRPC against a live emulator.
import * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { describe, expect, it } from "vitest";
import { checkPartnerToken, PartnerTokenError } from "../../provider/src/config/partner-check";
import { secret, startPlugin, UNKNOWN, urn, type PluginHandle } from "../helpers/plugin";
import { providerChecks } from "../helpers/provider-checks";
import { useProvider } from "../helpers/use-provider";

const ZONE = "nsp:dns:Zone";
const RECORD = "nsp:dns:Record";
const SUBJECT = "nsp:partner:Subject";
const MAIL_DOMAIN = "nsp:mail:Domain";
const partnerToken = `svc_${"9a31".repeat(8)}`;

interface Minted {
  token: string;
  subject: string;
  account: string;
  scope: "read" | "write";
  expired: boolean;
}

const { emulator, control, anotherPlugin } = useProvider({
  emulator: { accounts: [{ name: "msp", token: partnerToken }] },
  plugin: false,
});

async function minted(subject: string): Promise<Minted[]> {
  const res = await fetch(`${control.root}/_emulator/partner/credentials?subject=${encodeURIComponent(subject)}`);
  return ((await res.json()) as { data: Minted[] }).data;
}

async function customer(ref: string): Promise<void> {
  await control.post("/partner/subjects", { external_ref: ref });
}

/** The customer's own view of its zones, through a credential the test mints itself. */
async function customerZones(ref: string): Promise<string[]> {
  const { token } = await control.post<{ token: string }>(`/partner/subjects/${ref}/token`, { scope: "read" });
  const res = await fetch(`${emulator.baseUrl}/dns/zones`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { data: { name: string }[] }).data.map((z) => z.name);
}

async function serviceId(plugin: PluginHandle): Promise<string> {
  const { result } = await plugin.invoke("nsp:dns:getServices", { type: "auth_dns" });
  return (result.services as { id: string }[])[0]!.id;
}

function expectNoCredentialIn(texts: string[], credentials: Minted[]): void {
  expect(credentials.length).toBeGreaterThan(0);
  const all = texts.join("\n");
  for (const c of credentials) expect(all).not.toContain(c.token);
  expect(all).not.toContain(partnerToken);
}

describe("partner mode over gRPC", () => {
  it(
    "mints a read credential at Configure, a write credential once for concurrent changes, and works in " +
      "the customer's account",
    async () => {
      await customer("acme");
      const plugin = await anotherPlugin({ partnerSubject: "acme" });
      const { checked } = providerChecks(() => ({ plugin, control }));
      expect((await minted("acme")).map((c) => c.scope)).toEqual(["read"]);

      // A preview reads and plans; it never holds a write credential.
      const sid = await serviceId(plugin);
      const zoneInputs = await checked(ZONE, { serviceId: sid, name: "acme.example" });
      expect((await plugin.create(ZONE, "z", zoneInputs, true)).id).toBe("");
      expect((await minted("acme")).map((c) => c.scope)).toEqual(["read"]);

      const zone = await plugin.create(ZONE, "z", zoneInputs);
      const records = await Promise.all(
        ["www", "api", "mail"].map(async (name) =>
          plugin.create(
            RECORD,
            name,
            await checked(RECORD, { zoneId: zone.id, name, type: "A", content: "192.0.2.10" }),
          ),
        ),
      );
      expect((await minted("acme")).map((c) => c.scope)).toEqual(["read", "write"]);
      expect(await customerZones("acme")).toEqual(["acme.example"]);
      expect((await control.list<{ name: string }>("/dns/zones")).map((z) => z.name)).not.toContain("acme.example");

      const read = await plugin.read(RECORD, "www", records[0]!.id, records[0]!.properties);
      expect(read.properties).toMatchObject({ name: "www", content: "192.0.2.10" });
      const creds = await minted("acme");
      expectNoCredentialIn(
        [JSON.stringify([zone, records, read]), plugin.stderr(), plugin.stdout(), ...plugin.engineLogs],
        creds,
      );
    },
  );

  it("renews a credential before it expires, without a refused request", async () => {
    await customer("globex");
    await fetch(`${control.root}/_emulator/partner/token-ttl`, { method: "PUT", body: JSON.stringify({ seconds: 2 }) });
    try {
      const plugin = await anotherPlugin({ partnerSubject: "globex" });
      await serviceId(plugin);
      await new Promise((r) => setTimeout(r, 2_000));
      await serviceId(plugin);
      const creds = await minted("globex");
      expect(creds.map((c) => c.scope)).toEqual(["read", "read"]);
      expect(plugin.engineLogs.join("\n")).not.toMatch(/refused/);
    } finally {
      await fetch(`${control.root}/_emulator/partner/token-ttl`, {
        method: "PUT",
        body: JSON.stringify({ seconds: 900 }),
      });
    }
  });

  it("mints afresh and retries once when a credential is refused", async () => {
    await customer("initech");
    const plugin = await anotherPlugin({ partnerSubject: "initech" });
    await fetch(`${control.root}/_emulator/partner/credentials/expire`, {
      method: "POST",
      body: JSON.stringify({ subject: "initech" }),
    });
    expect(await serviceId(plugin)).toMatch(/^\d+$/);
    expect((await minted("initech")).map((c) => [c.scope, c.expired])).toEqual([
      ["read", true],
      ["read", false],
    ]);
    expect(plugin.engineLogs.join("\n")).toMatch(/the customer credential was refused; minting a fresh one/);

    // Once the partner stops acting for the customer, the fresh mint itself is refused, and says why.
    await control.delete("/partner/subjects/initech");
    const err = await plugin.invoke("nsp:dns:getServices", {}).then(
      () => undefined,
      (e: { details?: string }) => String(e.details),
    );
    expect(err).toMatch(
      /^partnerSubject "initech": the partner \(apiToken\) has no managed customer with this reference/,
    );
    expectNoCredentialIn([err!, plugin.stderr(), ...plugin.engineLogs], await minted("initech"));
  });

  it("fails at Configure for an unknown customer, naming partnerSubject and the provider instance, without a token", async () => {
    const plugin = await startPlugin();
    try {
      const err = await plugin
        .configure(
          { apiToken: secret(partnerToken), baseUrl: emulator.baseUrl, partnerSubject: "nobody" },
          "cust-nobody",
        )
        .then(
          () => undefined,
          (e: { details?: string }) => String(e.details),
        );
      expect(err).toMatch(
        /^nsp: partnerSubject "nobody": the partner \(apiToken\) has no managed customer with this reference.*\(provider "cust-nobody"\)$/,
      );
      expect([err, plugin.stderr(), ...plugin.engineLogs].join("\n")).not.toContain(partnerToken);
      const bad = await plugin.checkConfig({ apiToken: secret(partnerToken), partnerSubject: "has space" });
      expect(bad.failures.map((f) => f.property)).toEqual(["partnerSubject"]);
    } finally {
      await plugin.stop();
    }
  });

  it("replaces the provider, and so its resources, when it is pointed at another customer; other settings only update", async () => {
    const plugin = await startPlugin();
    try {
      const diffConfig = async (olds: Record<string, unknown>, news: Record<string, unknown>) => {
        const req = new providerPb.DiffRequest()
          .setUrn(urn("pulumi:providers:nsp", "cust"))
          .setOlds(Struct.fromJavaScript(olds as never))
          .setNews(Struct.fromJavaScript(news as never));
        const res = await plugin.call<providerPb.DiffRequest, providerPb.DiffResponse>("diffConfig", req);
        return { replaces: res.getReplacesList(), diffs: res.getDiffsList() };
      };
      const base = { baseUrl: emulator.baseUrl, partnerSubject: "acme" };
      expect(await diffConfig(base, { ...base, partnerSubject: "globex" })).toEqual({
        replaces: ["partnerSubject"],
        diffs: ["partnerSubject"],
      });
      expect(await diffConfig(base, { ...base, maxRetries: 2 })).toEqual({ replaces: [], diffs: ["maxRetries"] });
    } finally {
      await plugin.stop();
    }
  });

  it("stays unconfigured while the customer reference is unknown, instead of acting as the partner", async () => {
    const plugin = await startPlugin();
    try {
      await plugin.configure({ apiToken: secret(partnerToken), baseUrl: emulator.baseUrl, partnerSubject: UNKNOWN });
      await control.resetStats();
      const err = await plugin.invoke("nsp:dns:getServices", {}).then(
        () => undefined,
        (e: { details?: string }) => String(e.details),
      );
      expect(err).toMatch(/partnerSubject is not known yet/);
      expect((await control.stats()).total).toBe(0);
    } finally {
      await plugin.stop();
    }
  });

  describe(
    "a customer's stack of a fleet (examples/fleet: a partner provider for the Subject, a partner-mode " +
      "provider for the rest)",
    () => {
      type Obj = Record<string, unknown>;
      interface Made {
        type: string;
        name: string;
        id: string;
        inputs: Obj;
        properties: Obj;
        on: "partner" | "customer";
      }

      /** The two providers of one `pulumi` command, as the engine starts and configures them. */
      async function providers(
        token: string,
        ref: string,
        env: NodeJS.ProcessEnv,
      ): Promise<{ partner: PluginHandle; customer: PluginHandle }> {
        const [partner, customer] = await Promise.all([
          anotherPlugin({ apiToken: secret(token) }, { env, configure: false }),
          anotherPlugin({}, { env, configure: false }),
        ]);
        await partner.configure({ apiToken: secret(token), baseUrl: emulator.baseUrl }, "partner");
        await customer.configure(
          { apiToken: secret(token), baseUrl: emulator.baseUrl, partnerSubject: ref },
          "customer",
        );
        return { partner, customer };
      }

      /** The first `up` of the customer's stack: its subject, zone (no serviceId: no look-up in the program), a record and its mail domain. */
      async function firstUp(token: string, ref: string): Promise<Made[]> {
        const partner = await anotherPlugin({ apiToken: secret(token) }, { configure: false });
        await partner.configure({ apiToken: secret(token), baseUrl: emulator.baseUrl }, "partner");
        const made: Made[] = [];
        const make = async (plugin: PluginHandle, on: Made["on"], type: string, name: string, news: Obj) => {
          const { inputs, failures } = await plugin.check(type, name, news);
          expect(failures).toEqual([]);
          const { id, properties } = await plugin.create(type, name, inputs);
          made.push({ type, name, id, inputs, properties, on });
          return id;
        };
        await make(partner, "partner", SUBJECT, "subject", { externalRef: ref });
        const customer = await anotherPlugin({ apiToken: secret(token), partnerSubject: ref });
        const zoneId = await make(customer, "customer", ZONE, "zone", { name: `${ref}.fleet.example` });
        await make(customer, "customer", RECORD, "a-www", { zoneId, name: "www", type: "A", content: "192.0.2.10" });
        await make(customer, "customer", MAIL_DOMAIN, "mail", { zoneId, name: `${ref}.fleet.example` });
        await Promise.all([partner.stop(), customer.stop()]);
        return made;
      }

      /** What a no-change `pulumi up --skip-preview` asks of the providers: Check and Diff of every resource. */
      async function noChangeUp(
        made: Made[],
        plugins: { partner: PluginHandle; customer: PluginHandle },
      ): Promise<void> {
        for (const m of made) {
          const plugin = plugins[m.on];
          const { inputs, failures } = await plugin.check(m.type, m.name, m.inputs, m.inputs);
          expect(failures).toEqual([]);
          const d = await plugin.diff(m.type, m.name, m.id, m.properties, inputs, m.inputs);
          expect(d.changes, `${m.type} ${JSON.stringify(d)}`).toBe(false);
        }
      }

      it(
        "makes no request on the partner token in a no-change up when the caller checked the token; without " +
          "that, one per provider",
        async () => {
          const made = await firstUp(partnerToken, "fleet1");
          const minted = (await control.partnerCredentials()).length;
          const checked = { NSP_PARTNER_TOKEN: partnerToken, NSP_VERIFIED_TOKEN_ENV: "NSP_PARTNER_TOKEN" };

          await control.resetStats();
          await noChangeUp(made, await providers(partnerToken, "fleet1", checked));
          // Not one request, on any token: the subject's check and its reads are left to the calls that need them.
          expect((await control.stats()).total).toBe(0);
          expect((await control.partnerCredentials()).length).toBe(minted);

          // A stack run by hand, as the Kubernetes Operator runs one, checks for itself: one request per provider at Configure.
          await control.resetStats();
          await noChangeUp(made, await providers(partnerToken, "fleet1", { NSP_PARTNER_TOKEN: partnerToken }));
          expect((await control.tokenStats("account:msp")).byRoute).toEqual({
            "GET /me": 1,
            "POST /partner/subjects/{ref}/token": 1,
          });

          // The variable vouches for its own token only: a provider with another one checks it.
          const other = await control.addAccount("msp-other");
          await control.resetStats();
          const elsewhere = await anotherPlugin({ apiToken: secret(other) }, { env: checked });
          expect((await control.tokenStats("account:msp-other")).byRoute).toEqual({ "GET /me": 1 });
          await elsewhere.stop();

          // The program's look-up of the zone's service, were it still there, would mint a credential on every run.
          const { customer } = await providers(partnerToken, "fleet1", checked);
          await control.resetStats();
          await serviceId(customer);
          expect((await control.tokenStats("account:msp")).byRoute).toEqual({
            "POST /partner/subjects/{ref}/token": 1,
          });
        },
      );

      it(
        "fails clearly on a revoked partner token, naming NSP_PARTNER_TOKEN: at the worker's check, at " +
          "Configure, and at the first call after a check the caller made",
        async () => {
          const token = await control.addAccount("msp-revoked");
          const made = await firstUp(token, "fleet2");
          const env = { NSP_PARTNER_TOKEN: token };
          const checked = { ...env, NSP_VERIFIED_TOKEN_ENV: "NSP_PARTNER_TOKEN" };
          await checkPartnerToken(emulator.baseUrl, token);

          // Checked by the worker, then revoked: the no-change stack cannot tell and passes; a change finds out, naming the variable.
          const plugins = await providers(token, "fleet2", checked);
          await control.revokeToken(token);
          await noChangeUp(made, plugins);
          const zoneId = made.find((m) => m.type === ZONE)!.id;
          const failed = async (run: Promise<unknown>) =>
            run.then(
              () => "no error",
              (e: { details?: string }) => String(e.details),
            );
          const recordInputs = (
            await plugins.customer.check(RECORD, "a-api", { zoneId, name: "api", type: "A", content: "192.0.2.11" })
          ).inputs;
          const onCustomer = await failed(plugins.customer.create(RECORD, "a-api", recordInputs));
          expect(onCustomer).toMatch(
            /^partnerSubject "fleet2": the partner's apiToken was refused while minting a credential for the customer \(.*invalid or unknown bearer token\) \(the token is the value of NSP_PARTNER_TOKEN in the environment\) \(provider "customer"\)$/,
          );
          const onPartner = await failed(
            plugins.partner.create(
              SUBJECT,
              "subject",
              (await plugins.partner.check(SUBJECT, "subject", { externalRef: "fleet2-more" })).inputs,
            ),
          );
          expect(onPartner).toMatch(
            /^nsp: the API refused the API token in the apiToken of this provider instance \(POST \/partner\/subjects: unauthorized: invalid or unknown bearer token\); set a valid token there \(the token is the value of NSP_PARTNER_TOKEN in the environment\)\. \(provider "partner"\)$/,
          );

          // The worker's next check refuses it before any stack runs.
          const check = await checkPartnerToken(emulator.baseUrl, token).then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(check).toBeInstanceOf(PartnerTokenError);
          expect((check as PartnerTokenError).refused).toBe(true);
          expect((check as PartnerTokenError).message).toMatch(
            /^NSP_PARTNER_TOKEN: the API at http:\/\/127\.0\.0\.1:\d+\/api\/v1 does not know this token \(GET \/partner: unauthorized: invalid or unknown bearer token\); set the partner's API token there$/,
          );

          // A stack run by hand fails at Configure, each provider naming the variable, before anything changes.
          const byHand = await Promise.all([
            anotherPlugin({}, { env, configure: false }),
            anotherPlugin({}, { env, configure: false }),
          ]);
          const atConfigure = await Promise.all([
            failed(byHand[0]!.configure({ apiToken: secret(token), baseUrl: emulator.baseUrl }, "partner")),
            failed(
              byHand[1]!.configure(
                { apiToken: secret(token), baseUrl: emulator.baseUrl, partnerSubject: "fleet2" },
                "customer",
              ),
            ),
          ]);
          expect(atConfigure[0]).toMatch(
            /^nsp: the API does not know the API token in the apiToken of this provider instance \(GET \/me: .*\); nothing was changed\. Set a valid token there \(the token is the value of NSP_PARTNER_TOKEN in the environment\)\. \(provider "partner"\)$/,
          );
          expect(atConfigure[1]).toMatch(
            /^nsp: partnerSubject "fleet2": the partner's apiToken was refused .*\(the token is the value of NSP_PARTNER_TOKEN in the environment\) \(provider "customer"\)$/,
          );

          const everything = [
            onCustomer,
            onPartner,
            (check as Error).message,
            ...atConfigure,
            ...[plugins.partner, plugins.customer, ...byHand].flatMap((p) => [p.stderr(), p.stdout(), ...p.engineLogs]),
          ].join("\n");
          expect(everything).not.toContain(token);
          for (const c of await control.partnerCredentials()) expect(everything).not.toContain(c.token);
        },
      );

      it(
        "checkPartnerToken: a token the API knows passes with one request; a customer's minted credential, or " +
          "none, is refused naming the variable",
        async () => {
          await control.resetStats();
          await checkPartnerToken(emulator.baseUrl, partnerToken);
          expect((await control.stats()).byToken).toEqual({
            "account:msp": { total: 1, rateLimited: 0, byRoute: { "GET /partner": 1 }, byStatus: { "200": 1 } },
          });
          await customer("fleet3");
          const { token: minted } = await control.post<{ token: string }>("/partner/subjects/fleet3/token", {
            scope: "write",
          });
          await expect(checkPartnerToken(emulator.baseUrl, minted)).rejects.toThrow(
            /^NSP_PARTNER_TOKEN: this is a credential minted for customer "fleet3", not the partner's own API token$/,
          );
          await expect(checkPartnerToken(emulator.baseUrl, undefined)).rejects.toThrow(/^NSP_PARTNER_TOKEN is not set/);
          await expect(checkPartnerToken(emulator.baseUrl, "not-a-token", { variable: "FLEET_TOKEN" })).rejects.toThrow(
            /^FLEET_TOKEN must be an API token starting with "svc_"$/,
          );
        },
      );
    },
  );
});
