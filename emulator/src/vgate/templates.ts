// Starting templates. The API names them but not what they contain; these are the emulator's
// (see docs/api-assumptions.md). A template makes extensions (whose SIP passwords the create
// answer shows once) and the objects that tie them together.
import {
  type ExtensionRow,
  type GroupRow,
  type IvrRow,
  type PbxRow,
  type QueueRow,
  type TemplateId,
  type TimecondRow,
  type VgateTables,
  newId,
  newExtensionFields,
} from "./state";

interface TemplateSpec {
  id: TemplateId;
  name: string;
  description: string;
  extensions: Array<{ number: string; name: string }>;
  group?: { number: string; name: string };
  queue?: { number: string; name: string };
  ivr?: { name: string; greeting: string };
  hours?: { name: string };
}

/** Extensions numbered from `first` up, one per name. */
const phones = (first: number, ...names: string[]) => names.map((name, i) => ({ number: String(first + i), name }));

export const TEMPLATES: readonly TemplateSpec[] = [
  {
    id: "small-office",
    name: "Small office",
    description: "Three desk phones and a ring group that rings them all.",
    extensions: phones(101, "Desk 1", "Desk 2", "Desk 3"),
    group: { number: "600", name: "Office" },
  },
  {
    id: "reception",
    name: "Reception",
    description: "A reception desk and two staff phones behind a menu: 0 reception, 1 and 2 staff.",
    extensions: phones(100, "Reception", "Staff 1", "Staff 2"),
    ivr: { name: "Main menu", greeting: "welcome" },
  },
  {
    id: "after-hours",
    name: "After hours",
    description: "One phone and business hours, Monday to Friday 09:00 to 17:00.",
    extensions: phones(101, "Office"),
    hours: { name: "Business hours" },
  },
  {
    id: "contact-centre",
    name: "Contact centre",
    description: "Four agents in a queue.",
    extensions: phones(101, "Agent 1", "Agent 2", "Agent 3", "Agent 4"),
    queue: { number: "700", name: "Support" },
  },
  {
    id: "conference",
    name: "Conference",
    description: "A host phone and a room phone.",
    extensions: phones(101, "Host", "Room"),
  },
  {
    id: "personal",
    name: "Personal",
    description: "One phone.",
    extensions: phones(101, "Me"),
  },
  { id: "blank", name: "Blank", description: "Nothing; build the PBX yourself.", extensions: [] },
];

export function templateView(t: TemplateSpec): unknown {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    extensions: t.extensions.map((e) => ({ ...e })),
    groups: t.group ? [{ ...t.group }] : [],
    queues: t.queue ? [{ ...t.queue }] : [],
    ivrs: t.ivr ? [{ name: t.ivr.name }] : [],
    timeconds: t.hours ? [{ ...t.hours }] : [],
  };
}

/** Fills a new PBX from its template; returns the extensions made (with their passwords). */
export function applyTemplate(t: VgateTables, pbx: PbxRow, now: string): ExtensionRow[] {
  const spec = TEMPLATES.find((x) => x.id === pbx.template);
  if (!spec) return [];
  const stamp = { pbx_id: pbx.id, created_at: now, updated_at: now };
  const made = spec.extensions.map((e) => {
    const row: ExtensionRow = { id: newId(t, "ext"), ...stamp, ...newExtensionFields(e.number, now), name: e.name };
    pbx.objects.extension.set(row.id, row);
    return row;
  });
  const ids = made.map((e) => e.id);
  if (spec.group) {
    const g: GroupRow = {
      id: newId(t, "grp"),
      ...stamp,
      ...spec.group,
      strategy: "ringall",
      noanswer: "hangup",
      moh: "default",
      members: ids,
      ring_s: 20,
    };
    pbx.objects.group.set(g.id, g);
  }
  if (spec.queue) {
    const q: QueueRow = {
      id: newId(t, "que"),
      ...stamp,
      ...spec.queue,
      strategy: "ringall",
      moh: "default",
      timeout: "hangup",
      agents: ids,
      max_wait_s: 300,
      announce_every_s: 0,
      announce_position: false,
      announce_wait: false,
    };
    pbx.objects.queue.set(q.id, q);
  }
  if (spec.ivr) {
    const options: Record<string, string> = {};
    for (const [i, e] of made.entries()) options[String(i)] = `extension:${e.id}`;
    const ivr: IvrRow = {
      id: newId(t, "ivr"),
      ...stamp,
      name: spec.ivr.name,
      greeting: spec.ivr.greeting,
      invalid: "hangup",
      timeout: made[0] ? `extension:${made[0].id}` : "hangup",
      options,
      direct_dial: false,
      timeout_s: 10,
      repeat: 2,
    };
    pbx.objects.ivr.set(ivr.id, ivr);
  }
  if (spec.hours) {
    const tc: TimecondRow = {
      id: newId(t, "tc"),
      ...stamp,
      name: spec.hours.name,
      schedule: [{ days: ["mon", "tue", "wed", "thu", "fri"], from: "09:00", to: "17:00" }],
    };
    pbx.objects.timecond.set(tc.id, tc);
  }
  return made;
}
