// nsp-fleet: one Pulumi stack per customer of customers.json, each an ordinary stack of the
// customer project (a Pulumi.yaml and its program, which reads the customer from the stack's
// configuration). On one machine (`run`), or on a PostgreSQL queue shared by any number of
// workers on any number of machines (`enqueue`, `worker`, `status`). See docs/guides/fleet.md.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { credentials, InputError, parseCustomers, type Customer } from "./customers";
import { randomUUID } from "node:crypto";
import type PgBoss from "pg-boss";
import { connectPool, databaseUrl } from "./database";
import { driftSummary, type FleetEventBody } from "./events";
import { operatorManifests, parseResync, projectName } from "./manifests";
import { FleetMetrics, fleetSnapshot, parseMetricsPort, serveMetrics } from "./metrics";
import { runPool } from "./pool";
import { driftedStacks, enqueue, stackChanged, status, work } from "./queue";
import { errorSummary, markdownSummary, scrub, table, type FleetReport, type StackReport } from "./report";
import { addSchedule, checkCron, listSchedules, removeSchedule, scheduleKind } from "./schedules";
import { SERVE_USAGE } from "./serve/usage";
import { PartnerToken } from "./partner-token";
import { openStateBackend, runStack, type Operation, type StackOutcome } from "./stack-run";
import {
  deliverWithRetries,
  fleetEvent,
  handleDelivery,
  queueDelivery,
  webhookSettings,
  WEBHOOK_QUEUE,
  type DeliveryJob,
} from "./webhooks";

const USAGE = `usage: nsp-fleet <command> [options]

  enqueue [--customers FILE] [--preview | --drift [--remediate] | --destroy] [--retries N] [--retry-delay S]
      checks the whole file, then queues one job per customer; prints the run's id. A preview or
      drift check without --customers covers every customer the fleet has brought up
  worker [--concurrency N] [--until-idle] [--lease S] [--project DIR] [--log-dir DIR] [--webhook URL] [--metrics-port N]
      runs queued stacks, up to N at a time, until SIGTERM (or, with --until-idle, until no job is
      queued, waiting for a retry or running anywhere); fires the schedules and sends the webhooks
  status [--run ID] [--json] [--markdown FILE] [--expect-no-changes] | status --drifted [--json]
      each stack's result in a run (default: the latest); exit 1 while any failed. --drifted: the
      stacks drifted now, whichever run found it
  run --customers FILE [--preview | --drift [--remediate] | --destroy] [--concurrency N] [--report FILE]
      [--markdown FILE] [--expect-no-changes] [--project DIR] [--log-dir DIR] [--webhook URL]
      every customer's stack from this one process, no database
  schedule add drift|up --cron EXPR [--remediate] [--tz ZONE] [--retries N] [--retry-delay S]
  schedule ls [--json]
  schedule rm drift|up
      runs of every customer the fleet has brought up, fired by the workers on a cron
  manifests --operator --customers FILE --repo URL [--branch B] [--repo-dir DIR] [--secret NAME] [--backend URL] [--project DIR] [--resync-minutes N]
      a Pulumi Kubernetes Operator Stack object per customer, as a YAML list, on stdout
${SERVE_USAGE}

Options:
  --customers FILE   the customers, a JSON list: [{"ref", "zone", "records", "tokenEnv"?, "adoptSubject"?}]
  --preview          plan each stack's update and record it, writing nothing (pulumi preview)
  --drift            compare each stack's objects with its state and record what differs (pulumi
                     refresh --preview-only); --remediate then updates the drifted stacks (pulumi up --refresh)
  --destroy          destroy the customers' stacks instead of updating them
  --markdown FILE    a summary for a pull request's comment: one line per stack that changes
  --expect-no-changes  exit 3 when any stack would change (a preview) or drifted (a drift check)
  --concurrency N    stacks at a time, 1 to 64 (default: FLEET_CONCURRENCY or 4)
  --retries N        a failed stack's retries, 0 to 10, the delay doubling each time (default 2)
  --retry-delay S    seconds before the first retry (default 10)
  --lease S          seconds a worker's hold on a job lasts unless renewed; it renews it while the
                     stack runs, and a dead worker's job is taken again after it (default 60)
  --project DIR      the customer project, holding Pulumi.yaml (default: the current directory); manifests
                     reads the project's name from it
  --log-dir DIR      each stack's CLI output, one file per stack (default: .nsp-fleet/logs)
  --webhook URL      worker, run: where to send the events (a stack failed, drifted or recovered, a
                     run finished), signed with FLEET_WEBHOOK_SECRET (default: FLEET_WEBHOOK_URL);
                     https, or http on loopback only
  --metrics-port N   worker: serve Prometheus metrics on 127.0.0.1:N/metrics
  --cron EXPR        schedule: five fields, minute hour day-of-month month day-of-week
  --tz ZONE          schedule: the cron's time zone (default UTC)
  --repo-dir DIR     manifests: the customer project's folder in the git repository (default: its root)
  --resync-minutes N manifests: the Operator runs each stack again every N minutes at the same commit,
                     refreshing first (it finds drift and repairs it); 1 to 10080
  --report FILE      run: the report as JSON too

Exit codes: 0 done, 1 a stack failed, 2 bad input (nothing was run or queued), 3 a change or
drift where --expect-no-changes was given.

Environment: FLEET_DATABASE_URL (the queue: postgres://user:password@host:5432/db),
PULUMI_BACKEND_URL (the stacks' state: postgres://..., s3://..., file://...; the same database
works), PULUMI_CONFIG_PASSPHRASE for a self-managed backend, NSP_BASE_URL, NSP_PARTNER_TOKEN (the
partner token), each customer's tokenEnv, if any, FLEET_WEBHOOK_URL and FLEET_WEBHOOK_SECRET.`;

const PARTNER_TOKEN_ENV = "NSP_PARTNER_TOKEN";

function flags(argv: string[], options: Record<string, { type: "string" | "boolean" }>) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: false, strict: true }).values as Record<
      string,
      string | boolean | undefined
    >;
  } catch (e) {
    throw new InputError(`${(e as Error).message}\n\n${USAGE}`);
  }
}

function whole(value: string | boolean | undefined, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined || typeof value === "boolean") return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new InputError(`${name}: "${value}" must be a whole number from ${min} to ${max}`);
  return n;
}

const OPERATION_FLAGS = {
  preview: { type: "boolean" },
  drift: { type: "boolean" },
  remediate: { type: "boolean" },
  destroy: { type: "boolean" },
} as const;

/** The operation the flags ask for: `up` unless --preview, --drift or --destroy (one at most). */
function operationOf(f: Record<string, string | boolean | undefined>): { operation: Operation; remediate: boolean } {
  const given = (["preview", "drift", "destroy"] as const).filter((name) => f[name] === true);
  if (given.length > 1) throw new InputError(`${given.map((g) => `--${g}`).join(" and ")}: give one at most`);
  if (f.remediate === true && given[0] !== "drift")
    throw new InputError("--remediate: only with --drift (it updates the stacks a drift check finds drifted)");
  return { operation: given[0] ?? "up", remediate: f.remediate === true };
}

/** The exit code of a run's outcome: a failure first, then a change where none was expected. */
function exitCode(failed: number, changed: number, expectNoChanges: boolean, operation: Operation): number {
  if (failed > 0) return 1;
  if (expectNoChanges && changed > 0) {
    say(`--expect-no-changes: ${changed} stack(s) ${operation === "drift" ? "drifted" : "would change"}`);
    return 3;
  }
  return 0;
}

function writeMarkdown(file: string | boolean | undefined, text: string): void {
  if (typeof file === "string") writeFileSync(file, text);
}

function readCustomers(file: string | boolean | undefined): Customer[] {
  if (typeof file !== "string") throw new InputError(`--customers FILE is required\n\n${USAGE}`);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new InputError(
      `--customers: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
  return parseCustomers(text, file);
}

function projectDir(value: string | boolean | undefined): string {
  const dir = resolve(typeof value === "string" ? value : ".");
  if (!existsSync(join(dir, "Pulumi.yaml")))
    throw new InputError(
      `--project: no Pulumi.yaml in ${dir}; run nsp-fleet in the customer project's directory or name it`,
    );
  return dir;
}

/** What every command that runs stacks needs of the environment. */
function checkStackEnvironment(env: NodeJS.ProcessEnv): void {
  // The SDK would give it to every provider that names no subject, the partner's own included.
  if (env.NSP_PARTNER_SUBJECT !== undefined)
    throw new InputError(
      "NSP_PARTNER_SUBJECT: unset it; the fleet gives each customer's provider the customer's own subject",
    );
  const backend = env.PULUMI_BACKEND_URL ?? "";
  if (
    /^(file|postgres|postgresql|s3|gs|azblob):/.test(backend) &&
    env.PULUMI_CONFIG_PASSPHRASE === undefined &&
    env.PULUMI_CONFIG_PASSPHRASE_FILE === undefined
  ) {
    throw new InputError(
      "PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE): a self-managed backend encrypts each " +
        "stack's secrets (the tokens) with it",
    );
  }
}

/** The password of a URL, decoded and as written: pulumi prints a backend URL it cannot open whole. */
function passwordsOf(url: string | undefined): string[] {
  try {
    const raw = new URL(url ?? "").password;
    return raw ? [raw, decodeURIComponent(raw)] : [];
  } catch {
    return [];
  }
}

/** Fails at once, before any stack runs, when the state backend cannot be opened. */
async function backendOpened(projectDir: string, secrets: readonly string[]): Promise<void> {
  const error = await openStateBackend(projectDir, secrets);
  if (error) throw new Error(error);
}

function secretsOf(env: NodeJS.ProcessEnv) {
  const passwords = [...passwordsOf(env.PULUMI_BACKEND_URL), ...passwordsOf(env.FLEET_DATABASE_URL)];
  return (customer: Customer): string[] => [
    env[PARTNER_TOKEN_ENV] ?? "",
    customer.tokenEnv ? (env[customer.tokenEnv] ?? "") : "",
    ...passwords,
  ];
}

/**
 * The first SIGINT or SIGTERM aborts `first`; a second one ends the process at once, as it does
 * `pulumi up`. The listeners stay for good, so that the signal never ends the process by default.
 */
function onSignals(what: string): AbortSignal {
  const first = new AbortController();
  const stop = (signal: NodeJS.Signals) => {
    if (first.signal.aborted) process.exit(1);
    process.stderr.write(`nsp-fleet: ${signal}: ${what}\n`);
    first.abort();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return first.signal;
}

const say = (message: string) => process.stderr.write(`nsp-fleet: ${message}\n`);

async function enqueueCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const f = flags(argv, {
    customers: { type: "string" },
    ...OPERATION_FLAGS,
    retries: { type: "string" },
    "retry-delay": { type: "string" },
  });
  const { operation, remediate } = operationOf(f);
  // A preview or a drift check covers every customer the fleet has brought up, unless told which.
  const customers =
    f.customers === undefined && (operation === "preview" || operation === "drift")
      ? undefined
      : readCustomers(f.customers);
  const retries = whole(f.retries, "--retries", 0, 10, 2);
  const retryDelaySeconds = whole(f["retry-delay"], "--retry-delay", 1, 3600, 10);
  const { runId, stacks } = await enqueue({
    url: databaseUrl(env),
    customers,
    operation,
    remediate,
    retries,
    retryDelaySeconds,
  });
  say(`queued ${stacks} stack(s) to ${operation}${remediate ? " and remediate" : ""} as run ${runId}`);
  process.stdout.write(`${runId}\n`);
  return 0;
}

async function workerCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const f = flags(argv, {
    concurrency: { type: "string" },
    "until-idle": { type: "boolean" },
    lease: { type: "string" },
    project: { type: "string" },
    "log-dir": { type: "string" },
    webhook: { type: "string" },
    "metrics-port": { type: "string" },
  });
  const concurrency = whole(f.concurrency ?? env.FLEET_CONCURRENCY, "--concurrency (or FLEET_CONCURRENCY)", 1, 64, 4);
  const leaseSeconds = whole(f.lease, "--lease", 4, 3600, 60);
  const project = projectDir(f.project);
  const url = databaseUrl(env);
  const webhook = webhookSettings(env, typeof f.webhook === "string" ? f.webhook : undefined);
  const metricsPort = typeof f["metrics-port"] === "string" ? parseMetricsPort(f["metrics-port"]) : undefined;
  checkStackEnvironment(env);
  await backendOpened(project, [...passwordsOf(env.PULUMI_BACKEND_URL)]);
  // Served before the first job is taken: a port in use stops the worker with nothing run.
  const metricsPool = metricsPort === undefined ? undefined : await connectPool(url, 1);
  const metrics = metricsPool && new FleetMetrics(() => fleetSnapshot(metricsPool));
  const served =
    metrics &&
    (await serveMetrics(metrics, metricsPort!).catch(async (e) => {
      await metricsPool!.end();
      throw e;
    }));
  if (served) say(`metrics at ${served.url}`);
  const drain = onSignals("no new job is taken; the running stacks finish, then the worker exits");
  try {
    const failed = await work({
      url,
      concurrency,
      untilIdle: f["until-idle"] === true,
      leaseSeconds,
      projectDir: project,
      logDir: resolve(typeof f["log-dir"] === "string" ? f["log-dir"] : join(".nsp-fleet", "logs")),
      say,
      secretsOf: secretsOf(env),
      drain,
      partnerToken: new PartnerToken(env, say),
      ...(metrics ? { observer: metrics } : {}),
      ...(webhook
        ? {
            // Queued: a receiver that is down gets the event later, retried with backoff by any worker.
            notify: async (event, boss) => void (await queueDelivery(boss, webhook.url, event)),
            sideQueues: [
              {
                queue: WEBHOOK_QUEUE,
                handle: async (job, boss) => {
                  await handleDelivery(
                    job as PgBoss.JobWithMetadata<DeliveryJob>,
                    { query: (text, values) => boss.getDb().executeSql(text, values) },
                    webhook.secret,
                  );
                  await boss.complete(WEBHOOK_QUEUE, job.id);
                },
              },
            ],
          }
        : {}),
    });
    say(drain.aborted ? "drained: every stack it ran is finished" : "the queue is empty and no stack runs");
    return failed > 0 ? 1 : 0;
  } finally {
    await served?.close();
    await metricsPool?.end();
  }
}

async function statusCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const f = flags(argv, {
    run: { type: "string" },
    json: { type: "boolean" },
    drifted: { type: "boolean" },
    markdown: { type: "string" },
    "expect-no-changes": { type: "boolean" },
  });
  if (f.drifted) {
    if (f.run !== undefined || f.markdown !== undefined)
      throw new InputError(
        "--drifted: lists the stacks drifted now, whichever run found it; give it without --run and --markdown",
      );
    const drifted = await driftedStacks(databaseUrl(env));
    if (f.json) process.stdout.write(`${JSON.stringify(drifted, null, 2)}\n`);
    else process.stdout.write(table(drifted, `${drifted.length} stack(s) drifted`));
    return f["expect-no-changes"] && drifted.length > 0 ? 3 : 0;
  }
  const s = await status(databaseUrl(env), typeof f.run === "string" ? f.run : undefined);
  if (f.json) process.stdout.write(`${JSON.stringify(s, null, 2)}\n`);
  else {
    const what =
      s.operation === "preview"
        ? `, ${s.changed} would change`
        : s.operation === "drift"
          ? `, ${s.changed} drifted`
          : "";
    process.stdout.write(
      table(
        s.stacks,
        `run ${s.run} (${s.operation}${s.remediate ? ", remediate" : ""}${s.schedule ? `, schedule ${s.schedule}` : ""}): ` +
          `${s.succeeded} succeeded, ${s.failed} failed, ${s.pending} queued or running${what}`,
      ),
    );
  }
  writeMarkdown(f.markdown, markdownSummary(s));
  return exitCode(s.failed, s.changed, f["expect-no-changes"] === true, s.operation);
}

async function runCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const f = flags(argv, {
    customers: { type: "string" },
    concurrency: { type: "string" },
    ...OPERATION_FLAGS,
    report: { type: "string" },
    markdown: { type: "string" },
    "expect-no-changes": { type: "boolean" },
    project: { type: "string" },
    "log-dir": { type: "string" },
    webhook: { type: "string" },
  });
  const { operation, remediate } = operationOf(f);
  const customers = readCustomers(f.customers);
  const concurrency = whole(f.concurrency ?? env.FLEET_CONCURRENCY, "--concurrency (or FLEET_CONCURRENCY)", 1, 64, 4);
  const project = projectDir(f.project);
  const webhook = webhookSettings(env, typeof f.webhook === "string" ? f.webhook : undefined);
  checkStackEnvironment(env);
  const { partnerToken, customerTokens } = credentials(customers, env, PARTNER_TOKEN_ENV);
  const secrets = [partnerToken ?? "", ...customerTokens.values(), ...passwordsOf(env.PULUMI_BACKEND_URL)];
  await backendOpened(project, secrets);
  const logDir = resolve(typeof f["log-dir"] === "string" ? f["log-dir"] : join(".nsp-fleet", "logs"));
  // SIGTERM or Ctrl-C: no further stack starts, the running ones stop at a safe point as `pulumi
  // up` does on Ctrl-C (their state written, their lock released); the next run carries on.
  const interrupt = onSignals("no new stack starts; the running ones stop at a safe point");

  const partner = new PartnerToken(env, say);
  // No database, so no queue: each event is sent from here, retried with backoff, and the run
  // waits for them before it exits.
  const runId = randomUUID();
  const deliveries: Promise<unknown>[] = [];
  const send = (body: FleetEventBody) => {
    if (!webhook) return;
    const event = fleetEvent(body);
    deliveries.push(
      deliverWithRetries(webhook.url, event, webhook.secret).then((r) => {
        if (r.error !== undefined)
          say(`webhook ${event.type}: not delivered after ${r.attempts} attempt(s): ${r.error}`);
      }),
    );
  };

  const one = async (customer: Customer): Promise<StackReport> => {
    const started = new Date();
    const row = (result: StackReport["result"], changes: Record<string, number>, error?: string): StackReport => {
      const finished = new Date();
      const changed = Object.entries(changes).reduce((sum, [op, n]) => (op === "same" ? sum : sum + n), 0);
      return {
        stack: customer.ref,
        result,
        changes,
        changed,
        startedAt: started.toISOString(),
        finishedAt: finished.toISOString(),
        durationMs: finished.getTime() - started.getTime(),
        ...(error === undefined ? {} : { error }),
      };
    };
    if (interrupt.aborted) return row("cancelled", {}, "not started: the fleet was interrupted");
    const standing = customer.tokenEnv ? { env: {} } : await partner.status();
    const outcome: StackOutcome =
      "refused" in standing
        ? { output: `${standing.refused}\n`, error: standing.refused }
        : await runStack({
            customer,
            operation,
            remediate,
            projectDir: project,
            recover: false,
            interrupt,
            env: standing.env,
          });
    const logFile = join(logDir, `${customer.ref}.${operation}.log`);
    writeFileSync(logFile, scrub(outcome.output, secrets));
    const drift = outcome.drift ? { drift: outcome.drift } : {};
    const common = { run: runId, operation, stack: customer.ref, attempts: 1 };
    const found = outcome.drift && outcome.drift.resources.length > 0 ? driftSummary(outcome.drift) : undefined;
    if (found) send({ type: "stack.drifted", ...common, drift: found });
    if ("error" in outcome) {
      const error = errorSummary(scrub(outcome.error, secrets)) || scrub(outcome.error, secrets);
      send({ type: "stack.failed", ...common, error });
      return { ...row("failed", {}, error), ...drift, logFile };
    }
    if (found && outcome.remediation)
      send({ type: "stack.recovered", ...common, changes: outcome.remediation.changes, drift: found });
    return {
      ...row("succeeded", outcome.changes),
      ...(outcome.plan ? { plan: outcome.plan } : {}),
      ...drift,
      ...(outcome.remediation ? { remediation: outcome.remediation } : {}),
      logFile,
    };
  };

  mkdirSync(logDir, { recursive: true });
  const startedAt = new Date().toISOString();
  const stacks = await runPool(customers, concurrency, one);
  const failed = stacks.filter((s) => s.result !== "succeeded").length;
  const changed = stacks.filter((s) => s.result === "succeeded" && stackChanged(operation, s)).length;
  send({
    type: "run.finished",
    run: runId,
    operation,
    summary: {
      stacks: stacks.length,
      succeeded: stacks.length - failed,
      failed,
      ...(operation === "drift" ? { drifted: changed } : { changed }),
    },
  });
  await Promise.all(deliveries);
  const report: FleetReport = {
    operation,
    ...(remediate ? { remediate } : {}),
    concurrency,
    startedAt,
    finishedAt: new Date().toISOString(),
    succeeded: stacks.length - failed,
    failed,
    changed,
    stacks,
  };
  const what =
    operation === "preview" ? `, ${changed} would change` : operation === "drift" ? `, ${changed} drifted` : "";
  process.stdout.write(
    table(
      stacks,
      `${operation}: ${report.succeeded} succeeded, ${failed} failed${what}, at most ${concurrency} at a time`,
    ),
  );
  if (typeof f.report === "string") writeFileSync(f.report, `${scrub(JSON.stringify(report, null, 2), secrets)}\n`);
  writeMarkdown(f.markdown, scrub(markdownSummary({ run: runId, operation, stacks }), secrets));
  return exitCode(failed, changed, f["expect-no-changes"] === true, operation);
}

async function scheduleCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [verb, ...rest] = argv;
  switch (verb) {
    case "add": {
      const kind = scheduleKind(rest[0]);
      const f = flags(rest.slice(1), {
        cron: { type: "string" },
        remediate: { type: "boolean" },
        tz: { type: "string" },
        retries: { type: "string" },
        "retry-delay": { type: "string" },
      });
      if (f.remediate && kind !== "drift") throw new InputError("--remediate: only for a drift schedule");
      const timezone = typeof f.tz === "string" ? f.tz : "UTC";
      const cron = checkCron(typeof f.cron === "string" ? f.cron : undefined, timezone);
      const retries = whole(f.retries, "--retries", 0, 10, 2);
      const retryDelaySeconds = whole(f["retry-delay"], "--retry-delay", 1, 3600, 10);
      await addSchedule(databaseUrl(env), kind, cron, {
        timezone,
        remediate: f.remediate === true,
        retries,
        retryDelaySeconds,
      });
      say(`schedule ${kind}: "${cron}" (${timezone})${f.remediate ? ", remediating" : ""}; the workers fire it`);
      return 0;
    }
    case "ls": {
      const f = flags(rest, { json: { type: "boolean" } });
      const schedules = await listSchedules(databaseUrl(env));
      if (f.json) process.stdout.write(`${JSON.stringify(schedules, null, 2)}\n`);
      else {
        const rows = [
          ["KIND", "CRON", "TZ", "REMEDIATE", "LAST FIRING"],
          ...schedules.map((x) => [
            x.kind,
            x.cron,
            x.timezone,
            x.remediate ? "yes" : "no",
            x.lastFiring
              ? `${x.lastFiring.at} ${x.lastFiring.run ? `run ${x.lastFiring.run}` : `skipped: ${x.lastFiring.skipped}`}`
              : "never",
          ]),
        ];
        const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)));
        process.stdout.write(
          `${rows
            .map((r) =>
              r
                .map((c, col) => c.padEnd(widths[col]!))
                .join("  ")
                .trimEnd(),
            )
            .join("\n")}\n`,
        );
      }
      return 0;
    }
    case "rm": {
      const kind = scheduleKind(rest[0]);
      flags(rest.slice(1), {});
      const had = await removeSchedule(databaseUrl(env), kind);
      say(had ? `schedule ${kind}: removed` : `schedule ${kind}: there was none`);
      return 0;
    }
    default:
      throw new InputError(
        `schedule: ${verb === undefined ? "no verb" : `unknown verb ${verb}`}; add, ls or rm\n\n${USAGE}`,
      );
  }
}

function manifestsCommand(argv: string[]): number {
  const f = flags(argv, {
    operator: { type: "boolean" },
    customers: { type: "string" },
    repo: { type: "string" },
    branch: { type: "string" },
    "repo-dir": { type: "string" },
    secret: { type: "string" },
    backend: { type: "string" },
    project: { type: "string" },
    "resync-minutes": { type: "string" },
  });
  if (!f.operator)
    throw new InputError(
      "manifests: --operator is the one kind of manifest nsp-fleet writes (Pulumi Kubernetes Operator Stack objects)",
    );
  const customers = readCustomers(f.customers);
  if (typeof f.repo !== "string")
    throw new InputError("--repo URL is required: the git repository holding the customer project");
  process.stdout.write(
    operatorManifests(customers, {
      project: projectName(resolve(typeof f.project === "string" ? f.project : ".")),
      repo: f.repo,
      branch: typeof f.branch === "string" ? f.branch : "main",
      repoDir: typeof f["repo-dir"] === "string" ? f["repo-dir"] : ".",
      secret: typeof f.secret === "string" ? f.secret : "nsp-fleet",
      backend: typeof f.backend === "string" ? f.backend : undefined,
      resyncMinutes: parseResync(f["resync-minutes"], "--resync-minutes"),
    }),
  );
  return 0;
}

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "enqueue":
      return enqueueCommand(rest, env);
    case "worker":
      return workerCommand(rest, env);
    case "status":
      return statusCommand(rest, env);
    case "run":
      return runCommand(rest, env);
    case "schedule":
      return scheduleCommand(rest, env);
    case "manifests":
      return manifestsCommand(rest);
    case "serve":
      // The web server (fastify) loads only for this command.
      return (await import("./serve/command")).serveCommand(rest, env, say);
    case "--help":
    case "-h":
    case "help":
      process.stdout.write(`${USAGE}\n`);
      return 0;
    default:
      throw new InputError(`${command === undefined ? "no command" : `unknown command ${command}`}\n\n${USAGE}`);
  }
}

main(process.argv.slice(2), process.env).then(
  (code) => (process.exitCode = code),
  (e: unknown) => {
    say(e instanceof Error ? e.message : String(e));
    process.exitCode = e instanceof InputError ? 2 : 1;
  },
);
