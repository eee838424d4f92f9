import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { buildApp, listen, startEmulator } from "../../emulator/src";

describe("server lifecycle", () => {
  it("buildApp does not listen; listen puts it on 127.0.0.1", async () => {
    const app = buildApp();
    expect(app.accounts).toHaveLength(1);
    expect(app.accounts[0]).toMatchObject({ name: "demo", scope: "write" });
    expect(app.accounts[0]?.token).toMatch(/^svc_[0-9a-f]{32}$/);
    expect(app.store.list(app.store.services, "demo")).toHaveLength(4);
    const srv = await listen(app, { port: 0 });
    expect(srv.baseUrl).toBe(`http://127.0.0.1:${srv.port}/api/v1`);
    const r = await fetch(`${srv.baseUrl}/me`, { headers: { authorization: `Bearer ${app.accounts[0]?.token}` } });
    expect(r.status).toBe(200);
    await srv.close();
    await expect(fetch(`${srv.baseUrl}/me`)).rejects.toThrow();
  });

  it("close() ends idle keep-alive connections and held requests at once", async () => {
    const emu = await startEmulator();
    const auth = { authorization: `Bearer ${emu.token}` };
    expect((await fetch(`${emu.baseUrl}/me`, { headers: auth })).status).toBe(200); // leaves an idle keep-alive socket
    // Held for an hour and kept alive for an hour: close() resolving at all shows it waited for neither.
    emu.server.keepAliveTimeout = 3_600_000;
    emu.app.faults.set({ rate: 1, kinds: ["timeout"], timeoutMs: 3_600_000 });
    const arrived = once(emu.server, "request");
    const held = fetch(`${emu.baseUrl}/me`, { headers: auth }).then(
      () => "answered",
      () => "dropped",
    );
    await arrived;
    expect(emu.app.stats().faults).toEqual({ timeout: 1 });
    await emu.close();
    expect(await held).toBe("dropped");
    await emu.close(); // idempotent
  });
});
