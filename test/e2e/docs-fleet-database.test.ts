// docs/guides/fleet.md tells the reader how to make what its database URL names: a role that logs
// in with a password, and a database it owns. Those two commands are in the prose of the page's
// "You need" list, not in a shell block (docs-fleet.test.ts runs the blocks against a database of
// its own), so they run here as printed, as a superuser of a throwaway server, the password typed
// at their prompt; then the page's URL, but for the port, logs in and creates a table, as the
// fleet's queue does in its database.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "pg";
import { afterAll, expect, it } from "vitest";
import { FLEET_PAGE } from "./harness/doc-pages";
import { testPostgres, type TestPostgres } from "./harness/postgres-backend";
import { ROOT } from "./harness/pulumi-cli";

const PRINTED_URL = "postgres://fleet:secret@127.0.0.1:5432/fleet";

let pg: TestPostgres | undefined;
afterAll(() => pg?.stop());

/**
 * Runs a command in a session of its own: with no terminal to open, PostgreSQL's password prompt
 * reads what is typed from stdin.
 */
function typed(
  command: string,
  input: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
  const child = spawn("bash", ["-e", "-c", command], { env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  child.stdin.end(input);
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, output })));
}

it("docs/guides/fleet.md's commands make the role and the database its URL names", async () => {
  const page = readFileSync(join(ROOT, FLEET_PAGE), "utf8");
  const item = (/^- a PostgreSQL server[\s\S]*?(?=\n- )/m.exec(page)?.[0] ?? "").replace(/\s+/g, " ");
  expect(item).toContain(`\`${PRINTED_URL}\``);
  const commands = [...item.matchAll(/`((?:createuser|createdb|psql) [^`]+)`/g)].map((m) => m[1]!);
  expect(commands).toEqual(["createuser --pwprompt fleet", "createdb --owner fleet fleet"]);

  pg = await testPostgres();
  const server = new URL(pg.url);
  // The superuser the page says to run them as, through libpq's own variables.
  const superuser = {
    PATH: process.env.PATH,
    PGHOST: server.hostname,
    PGPORT: server.port,
    PGUSER: server.username,
    PGPASSWORD: decodeURIComponent(server.password),
    PGDATABASE: "postgres",
  };
  const printed = new URL(PRINTED_URL);
  const password = decodeURIComponent(printed.password);
  const admin = new Client(pg.url);
  await admin.connect();
  try {
    for (const command of commands) {
      const run = await typed(command, `${password}\n${password}\n`, superuser);
      expect(run.code, `${command}\n${run.output}`).toBe(0);
    }
    printed.port = server.port;
    const fleet = new Client(printed.toString());
    await fleet.connect();
    try {
      const { rows } = await fleet.query(
        "SELECT current_user AS who, pg_get_userbyid(datdba) AS owner FROM pg_database WHERE datname = current_database()",
      );
      expect(rows).toEqual([{ who: "fleet", owner: "fleet" }]);
      await fleet.query("CREATE TABLE made_by_fleet (id integer)");
    } finally {
      await fleet.end();
    }
  } finally {
    // The suite's server is shared by its files: leave it without the page's names.
    await admin.query("DROP DATABASE IF EXISTS fleet");
    await admin.query("DROP ROLE IF EXISTS fleet");
    await admin.end();
  }
});
