// `nsp-fleet serve` as a program of its own, for test/e2e/fleet-page.test.ts while dist/fleet.js
// (fleet/src/cli.ts) does not name the command yet: the same serveCommand and the same exit codes
// as cli.ts gives its commands (2 for bad input). The page's files come from NSP_FLEET_ASSETS
// (dist/fleet-assets, which the build writes), this bundle being elsewhere.
import { InputError } from "../../../fleet/src/customers";
import { serveCommand } from "../../../fleet/src/serve/command";

const say = (message: string) => process.stderr.write(`nsp-fleet: ${message}\n`);

serveCommand(process.argv.slice(2), process.env, say, { assetsDir: process.env.NSP_FLEET_ASSETS }).then(
  (code) => (process.exitCode = code),
  (e: unknown) => {
    say(e instanceof Error ? e.message : String(e));
    process.exitCode = e instanceof InputError ? 2 : 1;
  },
);
