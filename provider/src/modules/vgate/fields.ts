// Property schemas shared by the PBX-gateway resources. Only what is a standard (E.164, IANA
// time zones, IP addresses, ports) or documented (languages, templates) is checked here; value
// sets the API documents do not list (strategies, modes, object internals) are left to the API.
import { isIP } from "node:net";
import { z } from "zod";

const DESTINATION_FORMS =
  "`hangup`, `external:<E.164>`, `extension:<id>`, `voicemail:<extension id>`, `group:<ring group id>`, " +
  "`queue:<id>` or `ivr:<id>`";

/** Where a call goes, naming an object of the same PBX by its id. */
export function destination(description: string) {
  return z
    .string()
    .min(1, "must not be empty")
    .refine((s) => !/\s/.test(s), "must not contain spaces; a destination looks like ivr:<id> or hangup")
    .meta({
      description: `${description} One of ${DESTINATION_FORMS}, built from the object's id (\`ivr:\${menu.id}\`).`,
    });
}

export const dialNumber = z.string().regex(/^[0-9]{1,15}$/, "must be digits, such as 101");

export const name = z.string().min(1, "must not be empty");

/** A free-form object the API takes as it is; its fields are the API's (snake_case). */
export function apiObject(description: string) {
  return z
    .record(z.string(), z.unknown())
    .meta({ description: `${description} Sent to the API as written, field names in the API's snake_case.` });
}

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const timezone = z.string().refine(isTimeZone, "must be an IANA time zone such as Europe/Berlin");

export const ipOrPrefix = z.string().refine((s) => {
  const [addr, len, extra] = s.split("/");
  if (extra !== undefined || addr === undefined) return false;
  const v = isIP(addr);
  if (v === 0) return false;
  return len === undefined || (/^[0-9]{1,3}$/.test(len) && Number(len) <= (v === 4 ? 32 : 128));
}, "must be an IP address or prefix, such as 192.0.2.10 or 198.51.100.0/24");

export const timestamps = {
  createdAt: z.string().optional().meta({ description: "When the object was created." }),
  updatedAt: z.string().optional().meta({ description: "When the object was last changed." }),
};
