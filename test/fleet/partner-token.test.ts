// The fleet's one check of the partner token, against the emulator over HTTP: the stacks a worker
// starts together share one check, a check stands ten minutes, and a token the API refuses is
// told by name, never shown.
import { describe, expect, it } from "vitest";
import { PartnerToken } from "../../fleet/src/partner-token";
import { useProvider } from "../helpers/use-provider";

const partner = `svc_${"5e7a".repeat(8)}`;
const { emulator, control } = useProvider({
  emulator: { accounts: [{ name: "fleet-partner", token: partner }] },
  plugin: false,
});

describe("PartnerToken", () => {
  it("checks once for the stacks that ask together, again only after ten minutes, and names the variable it tells the stacks", async () => {
    let now = 1_000_000;
    const token = new PartnerToken(
      { NSP_BASE_URL: emulator.baseUrl, NSP_PARTNER_TOKEN: partner },
      () => {},
      () => now,
    );
    await control.resetStats();
    const together = await Promise.all([token.status(), token.status(), token.status()]);
    expect(together).toEqual(Array(3).fill({ env: { NSP_VERIFIED_TOKEN_ENV: "NSP_PARTNER_TOKEN" } }));
    now += 9 * 60_000;
    await token.status();
    expect((await control.tokenStats("account:fleet-partner")).total).toBe(1);
    now += 2 * 60_000;
    await token.status();
    expect((await control.tokenStats("account:fleet-partner")).byRoute).toEqual({ "GET /partner": 2 });
  });

  it("a refused token: every partner-mode stack is told why, naming NSP_PARTNER_TOKEN and not the token", async () => {
    const revoked = `svc_${"0d1e".repeat(8)}`;
    const status = await new PartnerToken(
      { NSP_BASE_URL: emulator.baseUrl, NSP_PARTNER_TOKEN: revoked },
      () => {},
    ).status();
    expect("refused" in status && status.refused).toMatch(
      /^NSP_PARTNER_TOKEN: the API at \S+ does not know this token/,
    );
    expect(JSON.stringify(status)).not.toContain(revoked);
  });

  it("no partner token set: nothing to check, nothing told", async () => {
    const token = new PartnerToken({ NSP_BASE_URL: emulator.baseUrl }, () => {});
    expect(token.present).toBe(false);
    expect(await token.status()).toEqual({ env: {} });
  });
});
