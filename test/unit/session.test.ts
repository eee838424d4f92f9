// The one configure path (configureSession): settings checked, and the API token kept by the
// session alone, which scrubs it from whatever leaves the provider.
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { configureSession, type ConfigureOptions } from "../../provider/src/config/session";
import { UNKNOWN } from "../../provider/src/framework/engine/property-values";

const TOKEN = "svc_session_unit_token_42";
const options: ConfigureOptions = {
  userAgent: "session-test",
  log: () => undefined,
  tokenSettings: { config: "nsp:apiToken", env: "NSP_API_TOKEN" },
  explicitProviders: true,
  env: {},
};

describe("configureSession", () => {
  it("scrubs its token from any text, and from bearer headers", () => {
    const session = configureSession({ apiToken: TOKEN, baseUrl: "http://127.0.0.1:1/api/v1" }, options);
    const scrubbed = session.scrub(
      `failed with ${TOKEN}; sent Authorization: Bearer svc_other_token_1; again ${TOKEN}`,
    );
    expect(scrubbed).not.toContain(TOKEN);
    expect(scrubbed).not.toContain("svc_other_token_1");
    expect(scrubbed).toBe("failed with [REDACTED]; sent Authorization: Bearer [REDACTED]; again [REDACTED]");
  });

  it("keeps the token out of its settings, its key, JSON and inspection", () => {
    const session = configureSession({ apiToken: TOKEN, baseUrl: "http://127.0.0.1:1/api/v1" }, options);
    expect(session.settings).not.toHaveProperty("apiToken");
    expect(session.hasToken).toBe(true);
    for (const shown of [JSON.stringify(session), inspect(session, { showHidden: true, depth: 5 }), session.key])
      expect(shown).not.toContain(TOKEN);
  });

  it("gives the same key for the same settings and token, another for another token", () => {
    const one = configureSession({ apiToken: TOKEN }, options);
    expect(configureSession({ apiToken: TOKEN }, options).key).toBe(one.key);
    expect(configureSession({}, { ...options, env: { NSP_API_TOKEN: TOKEN } }).key).toBe(one.key);
    expect(configureSession({ apiToken: `${TOKEN}x` }, options).key).not.toBe(one.key);
  });

  it("names the property of a bad setting without echoing the token", () => {
    expect(() => configureSession({ apiToken: "oops-secret-value" }, options)).toThrow(
      /invalid provider configuration: apiToken must be an API token starting with "svc_"/,
    );
    expect(() => configureSession({ apiToken: "oops-secret-value" }, options)).not.toThrow(/oops-secret-value/);
    expect(() => configureSession({ apiToken: TOKEN, maxRetries: "many" }, options)).toThrow(/maxRetries/);
  });

  it("without a token, or with a partner's customer not known yet, says so at the first request", () => {
    expect(() => configureSession({}, options).api()).toThrow(/no API token is configured.*explicit provider instance/);
    expect(() => configureSession({}, { ...options, explicitProviders: false }).api()).toThrow(
      /no API token is configured.*or export NSP_API_TOKEN\.$/,
    );
    const waiting = configureSession({ apiToken: TOKEN, partnerSubject: UNKNOWN }, options);
    expect(waiting.ready).toBe(false);
    expect(() => waiting.api()).toThrow(/partnerSubject is not known yet/);
  });

  it("opens one API session, on first use", () => {
    const session = configureSession({ apiToken: TOKEN, baseUrl: "http://127.0.0.1:1/api/v1" }, options);
    expect(session.api()).toBe(session.api());
    expect(session.api().client.baseUrl).toBe("http://127.0.0.1:1/api/v1");
  });
});
