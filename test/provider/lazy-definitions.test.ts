// A plugin evaluates a module's definitions only when a call names one of its tokens: the engine
// starts a plugin per provider instance for every command, and evaluating every definition was
// most of the CPU of its first call. Driven over gRPC as the engine calls; under NSP_DEBUG the
// plugin names the definitions it has evaluated so far (evaluatedTokens, framework/definition).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { functions, resources } from "../../provider/src/modules/all-definitions";
import { startPlugin, type PluginHandle } from "../helpers/plugin";

const every = [...resources, ...functions].map((d) => d.token);
const tokensOf = (module: string) => every.filter((t) => t.startsWith(`nsp:${module}:`));

/** The definitions the plugin says it has evaluated, from its latest NSP_DEBUG line. */
function evaluated(plugin: PluginHandle): string[] {
  const last = [...plugin.stderr().matchAll(/^\[nsp\] definitions evaluated: (\d+) \((.*)\)$/gm)].at(-1);
  if (!last) return [];
  const tokens = last[2]!.split(" ");
  expect(tokens).toHaveLength(Number(last[1]));
  return tokens;
}

describe("the plugin evaluates only the modules its calls name", () => {
  let plugin: PluginHandle;
  beforeAll(async () => {
    plugin = await startPlugin({ NSP_DEBUG: "1" });
  });
  afterAll(async () => {
    await plugin?.stop();
  });

  it("evaluates no definition for the provider's own configuration calls", async () => {
    expect((await plugin.checkConfig({})).failures).toEqual([]);
    expect(evaluated(plugin)).toEqual([]);
  });

  it("evaluates the dns module for a dns record's Check, and neither mail's nor partner's", async () => {
    const { failures } = await plugin.check("nsp:dns:Record", "r", {
      zoneId: "1",
      name: "www",
      type: "A",
      content: "192.0.2.1",
    });
    expect(failures).toEqual([]);
    const tokens = evaluated(plugin);
    expect(tokens).toEqual(expect.arrayContaining(tokensOf("dns")));
    expect(tokens.filter((t) => t.startsWith("nsp:mail:") || t.startsWith("nsp:partner:"))).toEqual([]);
    expect(tokens.length).toBeLessThan(every.length / 2);
  });

  it("adds the mail module for a mail function's Invoke, still not partner's", async () => {
    // Unconfigured, the call itself fails; the token was looked up first.
    await plugin.invoke("nsp:mail:getDomain", { name: "example.com" }).catch(() => undefined);
    const tokens = evaluated(plugin);
    expect(tokens).toEqual(expect.arrayContaining([...tokensOf("dns"), ...tokensOf("mail")]));
    expect(tokens.filter((t) => t.startsWith("nsp:partner:"))).toEqual([]);
  });

  it("evaluates every definition, once each, for a token no module holds", async () => {
    await expect(plugin.check("nsp:nowhere:Thing", "t", {})).rejects.toThrow(
      /unknown resource type "nsp:nowhere:Thing"/,
    );
    const tokens = evaluated(plugin);
    expect([...tokens].sort()).toEqual([...every].sort());
  });
});
