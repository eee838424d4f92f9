// The fleet's page in real headless Chromium (harness/fleet-page.ts), over a database filled with
// a fleet's rows as the workers leave them (harness/fleet-rows.ts): 40 customers over 8 hours of
// ups, previews and hourly drift checks, two failed, one drifted. Fast and without Pulumi, so the
// page is tested on its own; test/e2e/fleet.test.ts runs the same check over the fleet its workers
// made. The screenshots are kept with the test run's results (NSP_TEST_RESULTS), else in a
// temporary folder; the test prints where.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, it } from "vitest";
import { checkFleetPage } from "./harness/fleet-page";
import { fillFleet } from "./harness/fleet-rows";
import { testPostgres, type TestPostgres } from "./harness/postgres-backend";

const FAILED = ["c007", "c023"];
const DRIFTED = { stack: "c031", property: "content", recorded: "192.0.2.10", actual: "192.0.2.99" };

let pg: TestPostgres | undefined;
const scratch = mkdtempSync(join(tmpdir(), "nsp-fleet-page-"));

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  pg?.stop();
});

it("the fleet's page: every stack, the failed filter, a drifted customer's values, charts with data, a " +
  "run appearing live, the token rule, no secret, no serious accessibility issue", async () => {
  pg = await testPostgres();
  const url = await pg.database("fleet_page");
  const logDir = join(scratch, "logs");
  const fleet = await fillFleet(url, { stacks: 40, hours: 8, failed: FAILED, drifted: DRIFTED, logDir });
  const screenshotsDir = join(process.env.NSP_TEST_RESULTS ?? scratch, "screenshots", "fleet-page");
  await checkFleetPage({
    queueUrl: url,
    logDirs: [logDir],
    startRun: () => fleet.startRun(),
    failed: FAILED,
    drifted: DRIFTED,
    // Tokens as the fleet's own tests use them: none is in the rows, and none may appear.
    secrets: ["svc_0123456789abcdef0123456789abcdef", "svc_fedcba9876543210fedcba9876543210"],
    screenshotsDir,
  });
  if (process.env.NSP_TEST_RESULTS) process.stderr.write(`fleet page screenshots: ${screenshotsDir}\n`);
}, 120_000);
