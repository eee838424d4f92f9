// The provider's own configuration over gRPC, as the engine sends it: plain http is refused
// before any request, and errors of an explicit provider instance name that instance.
import { beforeAll, describe, expect, it } from "vitest";
import { useProvider } from "../helpers/use-provider";
import { secret, UNKNOWN } from "../helpers/plugin";

const ZONE = "nsp:dns:Zone";
const REMOTE_HTTP = "http://10.0.0.1/api/v1";
const UNRESOLVABLE_HTTP = "http://nsp-opt-in.invalid/api/v1";

// Each test starts its own plugin and configures it itself: what is under test is how it is configured.
const { emulator, control, anotherPlugin } = useProvider({ emulator: { rateLimitPerMinute: 0 }, plugin: false });
const unconfiguredPlugin = (env?: NodeJS.ProcessEnv) => anotherPlugin({}, { env, configure: false });
let serviceId: string;

beforeAll(async () => {
  serviceId = String((await control.services()).find((s) => s.type === "auth_dns")!.id);
});

describe("plain http only to loopback", () => {
  it("CheckConfig refuses http to another host, naming baseUrl and the opt-in; loopback, https and the opt-in pass", async () => {
    const plugin = await unconfiguredPlugin();
    const refused = await plugin.checkConfig({ apiToken: secret(emulator.token), baseUrl: REMOTE_HTTP });
    expect(refused.failures).toHaveLength(1);
    expect(refused.failures[0]!.property).toBe("baseUrl");
    expect(refused.failures[0]!.reason).toMatch(/plain http to 10\.0\.0\.1.*unencrypted.*nsp:insecureHttp true/);
    expect(refused.failures[0]!.reason).not.toContain(emulator.token);

    for (const news of [
      { baseUrl: emulator.baseUrl },
      { baseUrl: "https://10.0.0.1/api/v1" },
      { baseUrl: REMOTE_HTTP, insecureHttp: true },
      { baseUrl: REMOTE_HTTP, insecureHttp: "true" },
      // An opt-in computed by the program is judged in Configure, once known.
      { baseUrl: REMOTE_HTTP, insecureHttp: UNKNOWN },
    ]) {
      expect(
        (await plugin.checkConfig({ apiToken: secret(emulator.token), ...news })).failures,
        JSON.stringify(news),
      ).toEqual([]);
    }
  });

  it("Configure refuses it before any request, and no operation can then reach the API", async () => {
    const plugin = await unconfiguredPlugin();
    await expect(plugin.configure({ apiToken: secret(emulator.token), baseUrl: REMOTE_HTTP })).rejects.toThrow(
      /invalid provider configuration: baseUrl uses plain http to 10\.0\.0\.1.*NSP_INSECURE_HTTP/,
    );
    const inputs = (await plugin.check(ZONE, "z", { serviceId, name: "refused.example" })).inputs;
    await expect(plugin.create(ZONE, "z", inputs)).rejects.toThrow(/no API token is configured/);
    expect(plugin.stderr() + plugin.engineLogs.join("\n")).not.toContain(emulator.token);
  });

  it(
    "NSP_INSECURE_HTTP in the plugin's environment opts in, in CheckConfig and Configure: requests then " +
      "go to that plain-http host",
    async () => {
      const plugin = await unconfiguredPlugin({ NSP_INSECURE_HTTP: "true" });
      expect((await plugin.checkConfig({ apiToken: secret(emulator.token), baseUrl: REMOTE_HTTP })).failures).toEqual(
        [],
      );
      // A host that can never resolve (RFC 6761), so the attempt fails at once instead of waiting
      // on a remote address; no retry, so the one attempt is the answer.
      await plugin.configure({ apiToken: secret(emulator.token), baseUrl: UNRESOLVABLE_HTTP, maxRetries: 0 });
      const failed = await plugin.invoke("nsp:dns:getService", { id: serviceId }).then(
        () => "answered",
        (e: { details?: string }) => String(e.details),
      );
      expect(failed).not.toMatch(/no API token is configured|plain http/);
      expect(failed).toMatch(
        new RegExp(`GET /services/${serviceId}: network_error: .*getaddrinfo \\w+ nsp-opt-in\\.invalid`),
      );
      expect(plugin.stderr() + plugin.engineLogs.join("\n") + failed).not.toContain(emulator.token);
    },
  );
});

describe("a malformed token", () => {
  it("is a CheckConfig failure worded without the property's value, which the engine would print as {&{{[secret]}}}", async () => {
    const plugin = await unconfiguredPlugin();
    const { failures } = await plugin.checkConfig({ apiToken: secret("not-a-token-value"), baseUrl: emulator.baseUrl });
    expect(failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(
          /^apiToken must be an API token starting with "svc_" \(nsp:apiToken; the value is not shown\)$/,
        ),
      },
    ]);
  });
});

describe("a token the API does not know", () => {
  const wrongToken = `svc_${"0wrong9".repeat(5)}`;

  async function configureError(
    instance: string | undefined,
    token: { config?: string; env?: string },
  ): Promise<string> {
    const plugin = await unconfiguredPlugin(token.env ? { NSP_API_TOKEN: token.env } : undefined);
    const args = { baseUrl: emulator.baseUrl, ...(token.config ? { apiToken: secret(token.config) } : {}) };
    const err = await plugin.configure(args, instance).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err, "Configure must refuse a token the API does not know").toBeDefined();
    const message = String((err as { details?: string }).details);
    expect([message, plugin.stderr(), ...plugin.engineLogs].join("\n")).not.toContain(wrongToken);
    return message;
  }

  it("fails Configure, and so a preview, naming the setting and an explicit instance", async () => {
    expect(await configureError(undefined, { config: wrongToken })).toMatch(
      /does not know the API token in nsp:apiToken of the default provider .*unauthorized/,
    );
    expect(await configureError("default_0_1_0", { env: wrongToken })).toMatch(
      /does not know the API token in NSP_API_TOKEN/,
    );
    expect(await configureError("acct-b", { config: wrongToken })).toMatch(
      /does not know the API token in the apiToken of this provider instance .*\(provider "acct-b"\)$/,
    );
  });

  it("costs one read per process, however often it is configured", async () => {
    const plugin = await unconfiguredPlugin();
    await control.resetStats();
    await plugin.configure({ apiToken: secret(emulator.token), baseUrl: emulator.baseUrl });
    await plugin.configure({ apiToken: secret(emulator.token), baseUrl: emulator.baseUrl });
    const stats = await control.stats();
    expect(stats.total).toBe(1);
    expect(stats.byRoute).toEqual({ "GET /me": 1 });
  });
});

describe("errors name an explicit provider instance", () => {
  async function notFoundError(instance?: string): Promise<string> {
    const plugin = await unconfiguredPlugin();
    await plugin.configure({ apiToken: secret(emulator.token), baseUrl: emulator.baseUrl }, instance);
    const err = await plugin.invoke("nsp:dns:getService", { id: "999999" }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err, "an unknown service must be an error").toBeDefined();
    return String((err as { details?: string }).details);
  }

  it("an operation of an explicit instance says which one failed", async () => {
    expect(await notFoundError("acct-b")).toMatch(/\(provider "acct-b"\)$/);
  });

  it("the default provider's errors stay as they were", async () => {
    for (const instance of [undefined, "default_0_1_0"])
      expect(await notFoundError(instance), String(instance)).not.toContain("(provider ");
  });
});
