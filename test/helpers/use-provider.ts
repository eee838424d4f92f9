// One setup for every gRPC provider test file: a live emulator, the built plugin configured
// against it as the engine would, the emulator's control client, and the shared checks.
import { createHash } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/src/process/server";
import { EmulatorControl } from "./emulator-control";
import { secret, startPlugin, type PluginHandle } from "./plugin";
import { providerChecks } from "./provider-checks";

type Obj = Record<string, unknown>;

export interface ProviderOptions {
  /**
   * The emulator's one account, named for the file; its API token (`token` among the handles) is
   * made from the name, the same on every run. `emulator.accounts` instead for several.
   */
  account?: string;
  /**
   * Options of the emulator (accounts, ...). Its request limit is off unless the file names one
   * (`rateLimitPerMinute`): a file whose tests are not about pacing must not share one token's
   * budget between its plugins, its own API calls and its tests, or a fast machine turns it red.
   */
  emulator?: Parameters<typeof startEmulator>[0];
  /** Configuration beyond apiToken and baseUrl (e.g. maxRetries, batchReads). */
  config?: Obj;
  /** Set false when the file starts its own plugins (one per command, per test, ...). */
  plugin?: boolean;
}

export interface ProviderHandles {
  emulator: RunningEmulator;
  /** The API and the emulator's control endpoints, with the first account's token. */
  control: EmulatorControl;
  plugin: PluginHandle;
}

/**
 * A handle that test files can destructure at load time although the object it stands for only
 * exists once beforeAll has run: every property access goes to the object set later.
 */
function late<T extends object>(what: string): { handle: T; set(value: T | undefined): void } {
  let target: T | undefined;
  const handle = new Proxy({} as T, {
    get(_shell, prop) {
      if (!target) throw new Error(`the ${what} is used before beforeAll started it (or after afterAll stopped it)`);
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
    has: (_shell, prop) => target !== undefined && prop in target,
  });
  return { handle, set: (value) => (target = value) };
}

/** Registers beforeAll/afterAll for the emulator, the plugin and Configure; returns their handles and the shared checks. */
export function useProvider(options: ProviderOptions = {}) {
  const token =
    options.account === undefined
      ? undefined
      : `svc_${createHash("sha256").update(options.account).digest("hex").slice(0, 32)}`;
  const accounts = options.account === undefined ? {} : { accounts: [{ name: options.account, token: token! }] };
  const emulator = late<RunningEmulator>("emulator");
  const control = late<EmulatorControl>("emulator control");
  const plugin = late<PluginHandle>("plugin");
  let started: { emulator?: RunningEmulator; plugin?: PluginHandle } = {};
  const others: PluginHandle[] = [];

  beforeAll(async () => {
    started.emulator = await startEmulator({ rateLimitPerMinute: 0, ...accounts, ...options.emulator });
    emulator.set(started.emulator);
    control.set(new EmulatorControl(started.emulator.baseUrl, started.emulator.token));
    if (options.plugin === false) return;
    started.plugin = await startPlugin();
    plugin.set(started.plugin);
    await started.plugin.configure({
      apiToken: secret(started.emulator.token),
      baseUrl: started.emulator.baseUrl,
      ...options.config,
    });
  });

  afterAll(async () => {
    await Promise.all(others.splice(0).map((p) => p.stop()));
    await started.plugin?.stop();
    await started.emulator?.close();
    started = {};
  });

  /**
   * Another plugin process configured against the same emulator (a later pulumi command, or other
   * settings such as batchReads), stopped with the rest in afterAll unless the test stops it
   * first. `env` is the process's environment; `configure: false` leaves Configure to the test (a
   * missing token, NSP_* variables).
   */
  async function anotherPlugin(
    config: Obj = {},
    options: { env?: NodeJS.ProcessEnv; configure?: boolean } = {},
  ): Promise<PluginHandle> {
    const running = started.emulator;
    if (!running) throw new Error("anotherPlugin is called before beforeAll started the emulator");
    const another = await startPlugin(options.env);
    others.push(another);
    const stop = another.stop.bind(another);
    another.stop = () => {
      others.splice(others.indexOf(another) >>> 0, 1);
      return stop();
    };
    if (options.configure !== false)
      await another.configure({ apiToken: secret(running.token), baseUrl: running.baseUrl, ...config });
    return another;
  }

  const handles: ProviderHandles = { emulator: emulator.handle, control: control.handle, plugin: plugin.handle };
  return { ...handles, token: token!, anotherPlugin, ...providerChecks(() => handles) };
}
