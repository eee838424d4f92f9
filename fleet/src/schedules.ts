// `nsp-fleet schedule`: runs the fleet makes by itself, on a cron, kept in PostgreSQL as pg-boss
// schedules and fired by the workers through pg-boss's own timekeeper (see queue.ts). A firing
// runs every customer the fleet has brought up.
import { parseExpression } from "cron-parser";
import { InputError } from "./customers";
import { connect, ensureSchema } from "./database";
import { ensureQueues, scheduleQueue, SCHEDULE_KINDS, startBoss, type ScheduleData, type ScheduleKind } from "./queue";

export interface Schedule {
  kind: ScheduleKind;
  cron: string;
  timezone: string;
  remediate: boolean;
  /** The latest firing: when, and the run it made or why it skipped. */
  lastFiring?: { at: string; run?: string; skipped?: string };
}

export function scheduleKind(value: string | undefined): ScheduleKind {
  if (!SCHEDULE_KINDS.includes(value as ScheduleKind))
    throw new InputError(
      `schedule: "${value ?? ""}" is not a kind of run to schedule; one of ${SCHEDULE_KINDS.join(", ")}`,
    );
  return value as ScheduleKind;
}

/** A cron expression of five fields (minute to weekday), in a time zone, or what is wrong with it. */
export function checkCron(cron: string | undefined, timezone: string): string {
  if (cron === undefined || cron.trim() === "")
    throw new InputError(
      '--cron: required, five fields: minute hour day-of-month month day-of-week, e.g. "0 */4 * * *"',
    );
  try {
    new Intl.DateTimeFormat("en", { timeZone: timezone });
  } catch {
    throw new InputError(`--tz: "${timezone}" is not a time zone (an IANA name such as UTC or Europe/Paris)`);
  }
  const fields = cron.trim().split(/\s+/);
  // pg-boss fires a schedule at most once a minute: a seconds field would promise more.
  if (fields.length !== 5)
    throw new InputError(
      `--cron: "${cron}" has ${fields.length} field(s); give five: minute hour day-of-month month day-of-week, e.g. "0 */4 * * *"`,
    );
  try {
    parseExpression(cron, { tz: timezone });
  } catch (e) {
    throw new InputError(`--cron: "${cron}" is not a cron expression: ${(e as Error).message}`);
  }
  return fields.join(" ");
}

async function withBoss<T>(url: string, body: (boss: Awaited<ReturnType<typeof startBoss>>) => Promise<T>): Promise<T> {
  const boss = await startBoss(url, 2);
  try {
    return await body(boss);
  } finally {
    await boss.stop({ graceful: false, wait: false, close: true });
  }
}

export async function addSchedule(
  url: string,
  kind: ScheduleKind,
  cron: string,
  opts: { timezone: string; remediate: boolean; retries: number; retryDelaySeconds: number },
): Promise<void> {
  const client = await connect(url);
  try {
    await ensureSchema(client);
    await withBoss(url, async (boss) => {
      await ensureQueues(client, boss, [{ name: scheduleQueue(kind), policy: "standard" }]);
      const data: ScheduleData = {
        kind,
        retries: opts.retries,
        retryDelaySeconds: opts.retryDelaySeconds,
        ...(opts.remediate ? { remediate: true } : {}),
      };
      await boss.schedule(scheduleQueue(kind), cron, data, { tz: opts.timezone });
    });
  } finally {
    await client.end();
  }
}

export async function listSchedules(url: string): Promise<Schedule[]> {
  const schedules = await withBoss(url, (boss) => boss.getSchedules());
  const client = await connect(url);
  try {
    await ensureSchema(client);
    const firings = await client.query<{
      schedule: string;
      fired_at: Date;
      run_id: string | null;
      skipped: string | null;
    }>(
      "SELECT DISTINCT ON (schedule) schedule, fired_at, run_id, skipped FROM nsp_fleet.firings ORDER BY " +
        "schedule, fired_at DESC",
    );
    const last = new Map(firings.rows.map((f) => [f.schedule, f]));
    return SCHEDULE_KINDS.flatMap((kind) => {
      const s = schedules.find((x) => x.name === scheduleQueue(kind));
      if (!s) return [];
      const f = last.get(kind);
      const data = (s.data ?? {}) as Partial<ScheduleData>;
      return [
        {
          kind,
          cron: s.cron,
          timezone: (s as { timezone?: string }).timezone ?? s.options?.tz ?? "UTC",
          remediate: data.remediate === true,
          ...(f
            ? {
                lastFiring: {
                  at: f.fired_at.toISOString(),
                  ...(f.run_id ? { run: f.run_id } : {}),
                  ...(f.skipped ? { skipped: f.skipped } : {}),
                },
              }
            : {}),
        },
      ];
    });
  } finally {
    await client.end();
  }
}

/** Whether there was a schedule to remove. */
export async function removeSchedule(url: string, kind: ScheduleKind): Promise<boolean> {
  return withBoss(url, async (boss) => {
    const had = (await boss.getSchedules()).some((s) => s.name === scheduleQueue(kind));
    if (had) await boss.unschedule(scheduleQueue(kind));
    return had;
  });
}
