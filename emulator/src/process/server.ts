// Puts an app on a real socket. close() also ends keep-alive connections and held (fault)
// requests at once (fastify's forceCloseConnections), so a test run never waits for idle sockets.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type BuildOptions, buildApp } from "../pipeline/app";
import type { EmulatorApp } from "../pipeline/emulator-app";
import { API_PREFIX } from "../pipeline/http";

export interface ListenOptions {
  /** 0 or omitted: an ephemeral port. */
  port?: number;
  host?: string;
}

export interface RunningServer {
  baseUrl: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

export interface RunningEmulator extends RunningServer {
  app: EmulatorApp;
  /** Account name -> its first token. */
  accounts: Record<string, string>;
  /** The first account's token (the `demo` account by default). */
  token: string;
}

export async function listen(app: EmulatorApp, opts: ListenOptions = {}): Promise<RunningServer> {
  const host = opts.host ?? "127.0.0.1";
  await app.fastify.listen({ port: opts.port ?? 0, host });
  const server = app.fastify.server;
  // A client that sends garbage loses its connection; nothing to log.
  server.removeAllListeners("clientError");
  server.on("clientError", (_err, socket) => socket.destroy());
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  let closing: Promise<void> | null = null;
  return {
    baseUrl: `http://${urlHost}:${port}${API_PREFIX}`,
    port,
    server,
    close: () => {
      closing ??= (async () => {
        app.shutdown();
        await app.fastify.close();
      })();
      return closing;
    },
  };
}

/** Builds an app and listens: the one-call way for tests and the demo to get an emulator. */
export async function startEmulator(options: BuildOptions & ListenOptions = {}): Promise<RunningEmulator> {
  const app = buildApp(options);
  const running = await listen(app, options);
  const accounts: Record<string, string> = {};
  for (const a of app.accounts) accounts[a.name] ??= a.token;
  return { ...running, app, accounts, token: app.accounts[0]?.token ?? "" };
}
