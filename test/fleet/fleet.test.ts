// nsp-fleet's own parts, without the engine: the input checks, the pool, the report's text and
// the database settings. test/e2e/fleet.test.ts runs the whole tool with the pulumi CLI.
import { describe, expect, it } from "vitest";
import { credentials, parseCustomers } from "../../fleet/src/customers";
import { runPool } from "../../fleet/src/pool";
import { errorSummary, scrub, table } from "../../fleet/src/report";
import { connectionError, databaseUrl, shownUrl } from "../../fleet/src/database";

const acme = { ref: "acme", zone: "acme.example" };

describe("parseCustomers", () => {
  it("reads a customer with its records, the record type in capitals", () => {
    const [c] = parseCustomers(
      JSON.stringify([{ ...acme, records: [{ name: "www", type: "a", content: "192.0.2.1", ttl: 300 }] }]),
      "f",
    );
    expect(c).toEqual({
      ...acme,
      records: [{ name: "www", type: "A", content: "192.0.2.1", ttl: 300 }],
      adoptSubject: false,
    });
  });

  it.each([
    ["not JSON", "[", /^f: not JSON/],
    ["an empty list", "[]", /^f: must be a non-empty list of customers/],
    [
      "a reference that cannot name a stack",
      JSON.stringify([{ ...acme, ref: "a:b" }]),
      /customers\[0\]\.ref: "a:b" must be 1 to 100 letters/,
    ],
    ["an unknown property", JSON.stringify([{ ...acme, token: "svc_x" }]), /customers\[0\]\.token: unknown property/],
    [
      "a record without content",
      JSON.stringify([{ ...acme, records: [{ name: "www", type: "A" }] }]),
      /customers\[0\]\.records\[0\]\.content: must be a non-empty string/,
    ],
    [
      "a record listed twice",
      JSON.stringify([
        {
          ...acme,
          records: [
            { name: "www", type: "A", content: "192.0.2.1" },
            { name: "www", type: "A", content: "192.0.2.1" },
          ],
        },
      ]),
      /records\[1\]: the same record/,
    ],
    [
      "a zone given twice",
      JSON.stringify([acme, { ref: "other", zone: "acme.example" }]),
      /customers\[1\]\.zone: "acme.example" is already customers\[0\]\.zone/,
    ],
    [
      "a reference given twice",
      JSON.stringify([acme, { ref: "ACME", zone: "other.example" }]),
      /customers\[1\]\.ref: "ACME" is already customers\[0\]\.ref/,
    ],
    [
      "a subject to adopt for a customer with its own token",
      JSON.stringify([{ ...acme, tokenEnv: "T", adoptSubject: true }]),
      /customers\[0\]\.adoptSubject: only for a customer reached through the partner token/,
    ],
  ])("refuses %s, naming the property", (_, text, message) => {
    expect(() => parseCustomers(text, "f")).toThrow(message);
  });
});

describe("credentials", () => {
  const customers = parseCustomers(
    JSON.stringify([acme, { ref: "own", zone: "own.example", tokenEnv: "OWN_TOKEN" }]),
    "f",
  );

  it("takes the partner token and each customer's own token from the environment", () => {
    const got = credentials(customers, { PARTNER: "svc_p", OWN_TOKEN: "svc_o" }, "PARTNER");
    expect(got).toEqual({ partnerToken: "svc_p", customerTokens: new Map([["own", "svc_o"]]) });
  });

  it("names every missing variable at once", () => {
    expect(() => credentials(customers, {}, "PARTNER")).toThrow(
      "missing environment variables: OWN_TOKEN (the token of customer own); PARTNER (the partner token, for customers acme)",
    );
  });
});

describe("runPool", () => {
  it("runs at most the limit at a time and keeps the items' order", async () => {
    let running = 0;
    let most = 0;
    const results = await runPool([30, 5, 20, 1, 10], 2, async (ms) => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, ms));
      running--;
      return ms * 2;
    });
    expect(results).toEqual([60, 10, 40, 2, 20]);
    expect(most).toBe(2);
  });
});

describe("report text", () => {
  it("keeps the error lines of a CLI failure and blanks the secrets", () => {
    const message =
      "code: 255\n stdout: Updating (acme)\n stderr: error: unauthorized: invalid token svc_abc\nerror: update failed\n";
    expect(errorSummary(scrub(message, ["svc_abc", ""]))).toBe(
      "stderr: error: unauthorized: invalid token [secret] | error: update failed",
    );
  });
});

describe("database settings", () => {
  it("show a URL with its password blanked", () => {
    expect(shownUrl("postgres://fleet:s3cret@db.internal:5432/fleet")).toBe(
      "postgres://fleet:***@db.internal:5432/fleet",
    );
    expect(shownUrl("not a url")).toBe("(not a URL)");
  });

  it("say what to do about a refused connection, without the password", () => {
    const url = "postgres://fleet:s3cret@db.internal:5432/fleet";
    expect(
      connectionError({ code: "28P01", message: 'password authentication failed for user "fleet"' }, url).message,
    ).toBe(
      'the database refused user "fleet" (FLEET_DATABASE_URL=postgres://fleet:***@db.internal:5432/fleet): ' +
        'password authentication failed for user "fleet"; correct the user or password in the URL',
    );
    expect(connectionError({ code: "3D000", message: "" }, url).message).toMatch(
      /^database "fleet" does not exist .*; create it \(createdb fleet\)/,
    );
  });

  it("refuse a missing or non-postgres URL, naming the variable", () => {
    expect(() => databaseUrl({})).toThrow(/^FLEET_DATABASE_URL: not set/);
    expect(() => databaseUrl({ FLEET_DATABASE_URL: "mysql://a:b@h/d" })).toThrow(
      "FLEET_DATABASE_URL: mysql://a:***@h/d is not a postgres:// URL",
    );
  });
});

describe("the report's table", () => {
  it("shows the attempts and worker of queued stacks, and the changes of succeeded ones", () => {
    const text = table(
      [
        {
          stack: "acme",
          result: "succeeded",
          changes: { create: 8, same: 1 },
          durationMs: 13_200,
          attempts: 2,
          worker: "runner-1:41",
        },
        { stack: "globex", result: "queued", changes: {}, durationMs: 0, attempts: 0 },
      ],
      "run r (up): 1 succeeded, 0 failed, 1 queued or running",
    );
    expect(text).toBe(
      [
        "STACK   RESULT     CHANGES   ATTEMPTS  WORKER       DURATION  ERROR",
        "acme    succeeded  create 8  2         runner-1:41  13.2 s",
        "globex  queued               0",
        "run r (up): 1 succeeded, 0 failed, 1 queued or running",
        "",
      ].join("\n"),
    );
  });
});
