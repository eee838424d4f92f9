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
      expect((await plugin.checkConfig({ apiToken: secret(emulator.token), ...news })).failures, JSON.stringify(news)).toEqual([]);
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

  it("NSP_INSECURE_HTTP in the plugin's environment opts in, in CheckConfig and Configure: requests then go to that plain-http host", async () => {
    const plugin = await unconfiguredPlugin({ NSP_INSECURE_HTTP: "true" });
    expect((await plugin.checkConfig({ apiToken: secret(emulator.token), baseUrl: REMOTE_HTTP })).failures).toEqual([]);
    // A host that can never resolve (RFC 6761), so the attempt fails at once instead of waiting
    // on a remote address; no retry, so the one attempt is the answer.
    await plugin.configure({ apiToken: secret(emulator.token), baseUrl: UNRESOLVABLE_HTTP, maxRetries: 0 });
    const failed = await plugin.invoke("nsp:dns:getService", { id: serviceId }).then(
      () => "answered",
      (e: { details?: string }) => String(e.details),
    );
    expect(failed).not.toMatch(/no API token is configured|plain http/);
    expect(failed).toMatch(new RegExp(`GET /services/${serviceId}: network_error: .*getaddrinfo \\w+ nsp-opt-in\\.invalid`));
    expect(plugin.stderr() + plugin.engineLogs.join("\n") + failed).not.toContain(emulator.token);
  });
});

describe("errors name an explicit provider instance", () => {
  const wrongToken = `svc_${"0wrong9".repeat(5)}`;

  async function refusedErrors(instance?: string): Promise<string[]> {
    const plugin = await unconfiguredPlugin();
    await plugin.configure({ apiToken: secret(wrongToken), baseUrl: emulator.baseUrl }, instance);
    const inputs = (await plugin.check(ZONE, "z", { serviceId, name: "wrong-token.example" })).inputs;
    const messages: string[] = [];
    for (const attempt of [() => plugin.create(ZONE, "z", inputs), () => plugin.read(ZONE, "z", "1"), () => plugin.invoke("nsp:dns:getService", { id: serviceId })]) {
      const err = await attempt().then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err, "the wrong token must be refused").toBeDefined();
      messages.push(String((err as { details?: string }).details));
    }
    expect([...messages, plugin.stderr(), ...plugin.engineLogs].join("\n")).not.toContain(wrongToken);
    return messages;
  }

  it("a resource operation or function call of an explicit instance says which one was refused", async () => {
    const messages = await refusedErrors("acct-b");
    for (const m of messages) expect(m).toMatch(/401|token|unauthori[sz]ed/i);
    for (const m of messages) expect(m).toMatch(/\(provider "acct-b"\)$/);
  });

  it("the default provider's errors stay as they were", async () => {
    for (const instance of [undefined, "default_0_1_0"]) {
      const messages = await refusedErrors(instance);
      for (const m of messages) expect(m, String(instance)).not.toContain("(provider ");
    }
  });
});
