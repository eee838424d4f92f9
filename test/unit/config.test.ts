// The provider configuration's rules, one function at a time: plain http only to loopback.
import { describe, expect, it } from "vitest";
import {
  DEFAULT_BASE_URL,
  isLoopbackHost,
  parseConfig,
  plainHttpRefusal,
} from "../../provider/src/config/provider-config";
import { SECRET_SIG, SIG_KEY, unwrapProperties } from "../../provider/src/framework/engine/property-values";

const TOKEN = "svc_unit_test_token";

describe("plain http only to loopback", () => {
  it.each([
    "http://127.0.0.1:8080/api/v1",
    "http://127.1.2.3/api/v1",
    "http://localhost:3000/api/v1",
    "http://[::1]:9000/api/v1",
    "http://127.1/api/v1",
    "http://LOCALHOST./api/v1",
  ])("accepts %s", (baseUrl) => {
    expect(plainHttpRefusal(baseUrl, false)).toBeUndefined();
    const { config, failures } = parseConfig({ apiToken: TOKEN, baseUrl }, {});
    expect(failures).toEqual([]);
    expect(config?.insecureHttp).toBe(false);
  });

  it.each([
    "http://10.0.0.1/api/v1",
    "http://example.com/api/v1",
    "http://128.0.0.1/api/v1",
    "http://localhost.example.com/api/v1",
    "http://[::2]/api/v1",
    "http://[::ffff:127.0.0.1]/api/v1",
  ])("refuses %s, naming baseUrl and the opt-in", (baseUrl) => {
    const { config, failures } = parseConfig({ apiToken: TOKEN, baseUrl }, {});
    expect(config).toBeUndefined();
    expect(failures).toHaveLength(1);
    expect(failures[0]!.property).toBe("baseUrl");
    expect(failures[0]!.reason).toMatch(/plain http .*unencrypted.*nsp:insecureHttp true.*NSP_INSECURE_HTTP/);
    expect(failures[0]!.reason).not.toContain(TOKEN);
  });

  it.each([
    "https://10.0.0.1/api/v1",
    "https://example.com/api/v1",
    "https://127.0.0.1/api/v1",
    "https://[::1]/api/v1",
  ])("always accepts https: %s", (baseUrl) => {
    expect(parseConfig({ apiToken: TOKEN, baseUrl }, {}).failures).toEqual([]);
  });

  it("accepts any http host once the user opts in, by setting or by environment, as a string or a boolean", () => {
    const baseUrl = "http://10.0.0.1/api/v1";
    expect(parseConfig({ apiToken: TOKEN, baseUrl, insecureHttp: true }, {}).config?.insecureHttp).toBe(true);
    expect(parseConfig({ apiToken: TOKEN, baseUrl, insecureHttp: "true" }, {}).failures).toEqual([]);
    expect(parseConfig({ apiToken: TOKEN, baseUrl }, { NSP_INSECURE_HTTP: "true" }).failures).toEqual([]);
    expect(parseConfig({ apiToken: TOKEN }, { NSP_BASE_URL: baseUrl, NSP_INSECURE_HTTP: "true" }).failures).toEqual([]);
    // An explicit `false` keeps the refusal.
    expect(
      parseConfig({ apiToken: TOKEN, baseUrl, insecureHttp: "false" }, {}).failures.map((f) => f.property),
    ).toEqual(["baseUrl"]);
  });

  it("refuses an http address that comes from NSP_BASE_URL too", () => {
    expect(
      parseConfig({ apiToken: TOKEN }, { NSP_BASE_URL: "http://example.com/api/v1" }).failures.map((f) => f.property),
    ).toEqual(["baseUrl"]);
  });

  it("reports a bad opt-in value, not a refusal built on a guess", () => {
    const { failures } = parseConfig({ apiToken: TOKEN, baseUrl: "http://10.0.0.1/api/v1", insecureHttp: "yes" }, {});
    expect(failures.map((f) => f.property)).toEqual(["insecureHttp"]);
  });

  it("knows which hosts are loopback", () => {
    for (const host of ["127.0.0.1", "127.255.255.254", "localhost", "[::1]"])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ["10.0.0.1", "example.com", "0.0.0.0", "[::]", "127.0.0.1.example.com", "my-localhost"])
      expect(isLoopbackHost(host), host).toBe(false);
  });
});

// `pulumi do`, YAML, explicit providers and the SDKs hand Configure a setting the user did not
// give in different ways: left out, null, a secret with no value, or the schema's default filled
// in by the engine. Every one of them falls back to the setting's variable.
describe("settings the user did not give fall back to their variables", () => {
  const env = {
    NSP_API_TOKEN: TOKEN,
    NSP_BASE_URL: "http://127.0.0.1:9999/api/v1",
    NSP_REQUESTS_PER_MINUTE: "42",
    NSP_MAX_RETRIES: "1",
    NSP_BATCH_READS: "false",
  };
  const fromEnv = {
    apiToken: TOKEN,
    baseUrl: env.NSP_BASE_URL,
    requestsPerMinute: 42,
    maxRetries: 1,
    batchReads: false,
  };
  const pick = (config: Record<string, unknown> | undefined) =>
    config && Object.fromEntries(Object.keys(fromEnv).map((k) => [k, config[k]]));

  it("absent", () => {
    expect(pick(parseConfig({}, env).config)).toEqual(fromEnv);
  });

  it("null, and a secret with no value as the engine sends it", () => {
    const secretWithNoValue = unwrapProperties({ apiToken: { [SIG_KEY]: SECRET_SIG } }).value;
    expect(
      pick(
        parseConfig(
          { ...secretWithNoValue, baseUrl: null, requestsPerMinute: null, maxRetries: null, batchReads: null },
          env,
        ).config,
      ),
    ).toEqual(fromEnv);
    expect(
      pick(parseConfig(unwrapProperties({ apiToken: { [SIG_KEY]: SECRET_SIG, value: null } }).value, env).config),
    ).toEqual(fromEnv);
    expect(pick(parseConfig({ apiToken: "" }, env).config)).toEqual(fromEnv);
  });

  it("the schema's defaults as `pulumi do` fills them in", () => {
    const filled = {
      apiToken: null,
      baseUrl: DEFAULT_BASE_URL,
      insecureHttp: false,
      requestsPerMinute: 300,
      maxRetries: 5,
      batchReads: true,
    };
    expect(pick(parseConfig(filled, env).config)).toEqual(fromEnv);
    // ...and as strings, the way stack configuration carries them.
    expect(
      pick(
        parseConfig({ baseUrl: DEFAULT_BASE_URL, requestsPerMinute: "300", maxRetries: "5", batchReads: "true" }, env)
          .config,
      ),
    ).toEqual(fromEnv);
  });

  it("what the user set wins over the variable, and the default applies when neither is given", () => {
    const mine = {
      apiToken: "svc_mine",
      baseUrl: "http://127.0.0.1:1234/api/v1",
      requestsPerMinute: 7,
      maxRetries: 2,
      batchReads: false,
    };
    expect(pick(parseConfig(mine, env).config)).toEqual(mine);
    expect(parseConfig({ requestsPerMinute: "8" }, env).config?.requestsPerMinute).toBe(8);
    const bare = parseConfig({ apiToken: null }, {}).config;
    expect(bare).toMatchObject({
      baseUrl: DEFAULT_BASE_URL,
      requestsPerMinute: 300,
      maxRetries: 5,
      batchReads: true,
      insecureHttp: false,
    });
    expect(bare?.apiToken).toBeUndefined();
  });
});
