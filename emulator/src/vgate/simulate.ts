// POST /vgate/pbx/{pbx}/simulate: follows a call through the PBX's configuration without making
// one. The answer lists every object the call passes and how it ends (see
// docs/api-assumptions.md for the body and the answer).
import { z } from "zod";
import { type ExtensionRow, type PbxRow, type ScheduleRule, type DAYS, parseDestination } from "./state";
import { E164 } from "../pipeline/validation";

export const simulateBody = z.strictObject({
  kind: z.enum(["inbound", "internal"]).optional(),
  to: z.string().min(1).max(32),
  from: z.string().min(1).max(32).optional(),
  ext: z.string().min(1).max(64).optional(),
  at: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/, {
      error: "must be an RFC 3339 timestamp",
    })
    .refine((s) => !Number.isNaN(Date.parse(s)), { error: "must be an RFC 3339 timestamp" })
    .optional(),
  presses: z
    .array(z.string().regex(/^[0-9*#]{1,8}$/, { error: "must be keys 0-9, * or #" }))
    .max(20)
    .optional(),
  answer: z.record(z.string(), z.boolean()).optional(),
  fail_trunks: z.array(z.string().min(1).max(64)).max(10).optional(),
});
type SimulateBody = z.output<typeof simulateBody>;

type Outcome =
  | "answered"
  | "voicemail"
  | "hangup"
  | "unanswered"
  | "external"
  | "failed"
  | "no_route"
  | "paused"
  | "loop";

interface Step {
  object: string;
  id: string | null;
  name: string;
  note: string;
}

interface Result {
  outcome: Outcome;
  answered_by?: string;
  trunk_id?: string;
  dialled?: string;
}

const MAX_DEPTH = 20;

/** Dial patterns: X any digit, Z 1-9, N 2-9, a trailing `.` one or more of anything. */
function matchesPattern(pattern: string, value: string): boolean {
  let re = "^";
  for (const c of pattern) {
    if (c === "X") re += "[0-9]";
    else if (c === "Z") re += "[1-9]";
    else if (c === "N") re += "[2-9]";
    else if (c === ".") re += ".+";
    else if (c === "+") re += "\\+";
    else re += c;
  }
  return new RegExp(`${re}$`).test(value);
}

/** Whether `at` falls inside one of the rules, on the PBX's clock. */
function isOpen(schedule: readonly ScheduleRule[], at: number, timezone: string): boolean {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: timezone,
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(at));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const day = get("weekday").toLowerCase().slice(0, 3) as (typeof DAYS)[number];
  const time = `${get("hour")}:${get("minute")}`;
  return schedule.some((r) => r.days.includes(day) && r.from <= time && time < r.to);
}

export function simulate(pbx: PbxRow, body: SimulateBody, now: number) {
  const steps: Step[] = [];
  const step = (object: string, id: string | null, name: string, note: string) =>
    steps.push({ object, id, name, note });
  const at = body.at ? Date.parse(body.at) : now;
  const presses = [...(body.presses ?? [])];
  const failing = new Set(body.fail_trunks ?? []);
  const o = pbx.objects;

  const answers = (ext: ExtensionRow): boolean => body.answer?.[ext.id] ?? body.answer?.[ext.number] ?? !ext.dnd;

  function ringExtension(ext: ExtensionRow, depth: number): Result {
    const fwd = ext.forward ?? {};
    if (fwd.always) {
      step("extension", ext.id, ext.number, "forwards every call");
      return go(fwd.always, depth + 1);
    }
    if (answers(ext)) {
      step("extension", ext.id, ext.number, "answers");
      return { outcome: "answered", answered_by: ext.id };
    }
    step("extension", ext.id, ext.number, ext.dnd ? "do not disturb" : "does not answer");
    if (ext.dnd && fwd.busy) return go(fwd.busy, depth + 1);
    if (fwd.noanswer) return go(fwd.noanswer, depth + 1);
    if (ext.voicemail?.enabled === true) {
      step("voicemail", ext.id, ext.number, "takes a message");
      return { outcome: "voicemail" };
    }
    return { outcome: "unanswered" };
  }

  function ringAll(members: readonly string[]): ExtensionRow | undefined {
    for (const id of members) {
      const ext = o.extension.get(id);
      if (ext && answers(ext)) return ext;
    }
    return undefined;
  }

  /** A ring group or a queue: the first free of `ringing` answers, else the call goes on to `next`. */
  function hunt(
    kind: "group" | "queue",
    row: { id: string; name: string },
    ringing: readonly string[],
    noAnswer: string,
    next: string,
    depth: number,
  ): Result {
    const who = ringAll(ringing);
    step(kind, row.id, row.name, who ? `${who.number} answers` : noAnswer);
    return who ? { outcome: "answered", answered_by: who.id } : go(next, depth + 1);
  }

  function dialOut(number: string): Result {
    const routes = [...o.outbound.values()].sort((a, b) => a.priority - b.priority);
    for (const r of routes) {
      const pattern = r.patterns.find((p) => typeof p.match === "string" && matchesPattern(p.match, number));
      if (!pattern) continue;
      step("outbound", r.id, r.name, `matches ${String(pattern.match)}`);
      if (pbx.status === "paused" && !r.emergency) {
        step("pbx", pbx.id, pbx.name, "outbound calls are paused");
        return { outcome: "paused" };
      }
      const strip = typeof pattern.strip === "number" ? pattern.strip : 0;
      const dialled = `${typeof pattern.prepend === "string" ? pattern.prepend : ""}${number.slice(strip)}`;
      for (const id of r.trunks) {
        const trunk = o.trunk.get(id);
        if (!trunk) continue;
        if (failing.has(id) || trunk.state === "failed") {
          step("trunk", id, trunk.name, "fails");
          continue;
        }
        step("trunk", id, trunk.name, `carries ${dialled}`);
        return { outcome: "external", trunk_id: id, dialled };
      }
      return { outcome: "failed" };
    }
    step("outbound", null, number, "no outbound route matches");
    return { outcome: "no_route" };
  }

  function go(dest: string, depth: number): Result {
    if (depth > MAX_DEPTH) {
      step("loop", null, dest, `more than ${MAX_DEPTH} hops`);
      return { outcome: "loop" };
    }
    const parsed = parseDestination(dest);
    if (!parsed.ok || parsed.target === null) {
      if (dest.startsWith("external:")) return dialOut(dest.slice("external:".length));
      step("hangup", null, "hangup", "the call ends");
      return { outcome: "hangup" };
    }
    const { id } = parsed.target;
    const kind = dest.slice(0, dest.indexOf(":"));
    if (kind === "voicemail") {
      const ext = o.extension.get(id);
      step("voicemail", id, ext?.number ?? id, "takes a message");
      return { outcome: "voicemail" };
    }
    if (kind === "extension") {
      const ext = o.extension.get(id);
      return ext ? ringExtension(ext, depth) : { outcome: "hangup" };
    }
    if (kind === "group") {
      const g = o.group.get(id);
      return g
        ? hunt("group", g, g.members, `nobody answers in ${g.ring_s} s`, g.noanswer, depth)
        : { outcome: "hangup" };
    }
    if (kind === "queue") {
      const q = o.queue.get(id);
      return q
        ? hunt("queue", q, q.agents, `no agent within ${q.max_wait_s} s`, q.timeout, depth)
        : { outcome: "hangup" };
    }
    const ivr = o.ivr.get(id);
    if (!ivr) return { outcome: "hangup" };
    const press = presses.shift();
    if (press === undefined) {
      step("ivr", ivr.id, ivr.name, "no key pressed");
      return go(ivr.timeout, depth + 1);
    }
    const option = ivr.options[press];
    if (option) {
      step("ivr", ivr.id, ivr.name, `${press} pressed`);
      return go(option, depth + 1);
    }
    const direct = ivr.direct_dial ? [...o.extension.values()].find((e) => e.number === press) : undefined;
    if (direct) {
      step("ivr", ivr.id, ivr.name, `${press} dialled directly`);
      return ringExtension(direct, depth + 1);
    }
    step("ivr", ivr.id, ivr.name, `${press} is not an option`);
    return go(ivr.invalid, depth + 1);
  }

  function inbound(): Result {
    const number = [...o.number.values()].find((n) => n.e164 === body.to);
    if (number) {
      step("number", number.id, number.e164, number.flow ? "has a flow" : "");
      const f = number.flow;
      if (f) {
        if (f.hours && !isOpen(f.hours, at, pbx.timezone)) {
          step("timecond", number.flow_timecond_id, "hours", "closed");
          return go(f.after_hours ?? "hangup", 1);
        }
        return go(f.ring ? `group:${number.flow_group_id}` : (f.destination ?? "hangup"), 1);
      }
    }
    const cidOk = (p: string | null) => p === null || (body.from !== undefined && matchesPattern(p, body.from));
    const routes = [...o.inbound.values()];
    const specific = routes.find(
      (r) =>
        ((number && r.number_id === number.id) || (r.did !== null && matchesPattern(r.did, body.to))) &&
        cidOk(r.cid_pattern),
    );
    const route = specific ?? routes.find((r) => r.number_id === null && r.did === null && cidOk(r.cid_pattern));
    if (!route) {
      step("inbound", null, body.to, "no inbound route matches");
      return { outcome: "no_route" };
    }
    step("inbound", route.id, route.name, "matches");
    return go(route.destination, 1);
  }

  function internal(): Result {
    const caller = body.ext
      ? [...o.extension.values()].find((e) => e.id === body.ext || e.number === body.ext)
      : undefined;
    if (caller) step("extension", caller.id, caller.number, "calls");
    for (const kind of ["extension", "group", "queue"] as const) {
      for (const row of o[kind].values()) if (row.number === body.to) return go(`${kind}:${row.id}`, 1);
    }
    if (E164.test(body.to) || /^[0-9]{3,}$/.test(body.to)) return dialOut(body.to);
    step("dialplan", null, body.to, "not a number of this PBX");
    return { outcome: "no_route" };
  }

  const result = (body.kind ?? "inbound") === "inbound" ? inbound() : internal();
  return {
    pbx_id: pbx.id,
    kind: body.kind ?? "inbound",
    to: body.to,
    from: body.from ?? null,
    at: new Date(at).toISOString(),
    steps,
    ...result,
  };
}
