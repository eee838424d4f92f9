// The PostgreSQL server of the tests that need one: the one the test command started
// (scripts/postgres.sh, which exports NSP_TEST_POSTGRES_URL), or else one this file starts with
// the same script and stops after. A server that cannot be started fails the test.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { Client } from "pg";
import { ROOT } from "./pulumi-cli";

export interface TestPostgres {
  /** The server's maintenance database, as postgres://user:password@127.0.0.1:port/postgres. */
  url: string;
  /** A new empty database; its URL. */
  database(prefix: string): Promise<string>;
  stop(): void;
}

export async function testPostgres(): Promise<TestPostgres> {
  let url = process.env.NSP_TEST_POSTGRES_URL;
  let dir: string | undefined;
  if (!url) {
    const out = execFileSync("bash", [join(ROOT, "scripts/postgres.sh"), "start"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    url = /^NSP_TEST_POSTGRES_URL=(.*)$/m.exec(out)?.[1];
    dir = /^NSP_TEST_POSTGRES_DIR=(.*)$/m.exec(out)?.[1];
    if (!url || !dir) throw new Error(`scripts/postgres.sh start printed no URL:\n${out}`);
  }
  const server = url;
  return {
    url: server,
    async database(prefix) {
      const name = `${prefix}_${randomBytes(4).toString("hex")}`;
      const client = new Client(server);
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      const u = new URL(server);
      u.pathname = `/${name}`;
      return u.toString();
    },
    stop() {
      if (dir) execFileSync("bash", [join(ROOT, "scripts/postgres.sh"), "stop", dir], { stdio: "ignore" });
    },
  };
}

/** Pulumi's PostgreSQL state backend at that database: its driver asks for TLS unless told not to. */
export function pulumiBackendUrl(databaseUrl: string): string {
  return `${databaseUrl}?sslmode=disable`;
}
