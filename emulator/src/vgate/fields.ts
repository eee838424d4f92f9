// Field schemas of the PBX gateway's request bodies. The API names the fields and their JSON
// types; the values and ranges below are the emulator's choices (docs/api-assumptions.md).
import { isIP } from "node:net";
import { z } from "zod";
import { E164, intBetween, noRepeats } from "../pipeline/validation";
import { DAYS } from "./state";

export const nameField = z.string().trim().min(1).max(100);
export const dialNumber = z
  .string()
  .regex(/^[1-9][0-9]{1,5}$/, { error: "must be 2 to 6 digits, not starting with 0" });
export const e164 = z.string().regex(E164, { error: "must be an E.164 number such as +4930123456" });
export const objectId = z.string().min(1).max(64);
export const destination = z.string().min(1).max(200);
export const email = z
  .string()
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { error: "must be an email address" });
export const callPattern = z.string().regex(/^\+?[0-9XZN]{1,20}\.?$/, {
  error:
    "must be digits with X (any digit), Z (1-9) or N (2-9), optionally a leading + and a trailing . (anything more)",
});

export const hostOrIp = z
  .string()
  .refine(
    (s) =>
      isIP(s) !== 0 ||
      /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(
        s,
      ),
    {
      error: "must be a host name or an IP address",
    },
  );

export const ipOrPrefix = z.string().refine(
  (s) => {
    const [addr, len, extra] = s.split("/");
    if (extra !== undefined || addr === undefined) return false;
    const v = isIP(addr);
    if (v === 0) return false;
    if (len === undefined) return true;
    return /^[0-9]{1,3}$/.test(len) && Number(len) <= (v === 4 ? 32 : 128);
  },
  { error: "must be an IP address or prefix" },
);

/** An array whose items must differ; a repeat is named by its index. */
export function uniqueArray<T extends z.ZodType>(item: T, min: number, max: number) {
  return z
    .array(item)
    .min(min)
    .max(max)
    .superRefine(noRepeats((first) => `duplicate of item ${first}`));
}

const clock = z
  .string()
  .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$/, { error: "must be a time HH:MM (00:00 to 24:00)" });

const scheduleRule = z
  .strictObject({
    days: uniqueArray(z.enum(DAYS), 1, 7),
    from: clock,
    to: clock,
  })
  .superRefine((r, ctx) => {
    if (r.from >= r.to) ctx.addIssue({ code: "custom", path: ["to"], message: "must be later than from" });
  });

export const schedule = z.array(scheduleRule).min(1).max(50);

export const voicemail = z.strictObject({
  enabled: z.boolean().optional(),
  pin: z
    .string()
    .regex(/^[0-9]{4,10}$/, { error: "must be 4 to 10 digits" })
    .optional(),
  email: email.nullable().optional(),
  greeting: z.string().max(200).optional(),
});

export const forward = z.strictObject({
  always: destination.optional(),
  busy: destination.optional(),
  noanswer: destination.optional(),
});

export const outboundPattern = z.strictObject({
  match: callPattern,
  prepend: z
    .string()
    .regex(/^\+?[0-9]{1,10}$/, { error: "must be up to 10 digits, optionally after a +" })
    .optional(),
  strip: intBetween(0, 10).optional(),
});

export const ivrOptions = z.record(z.string(), destination).superRefine((options, ctx) => {
  for (const key of Object.keys(options)) {
    if (!/^[0-9*#]$/.test(key)) ctx.addIssue({ code: "custom", path: [key], message: "must be one key: 0-9, * or #" });
  }
});
