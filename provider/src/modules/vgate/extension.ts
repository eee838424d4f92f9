import { z } from "zod";
import { wireTimestamp } from "../../framework/api/wire";
import { deepEqual } from "../../framework/engine/diff";
import { apiObject, dialNumber, name } from "./fields";
import { e164, emailAsWritten, rotationTrigger } from "../../framework/api/validators";
import { definePbxObject } from "./object";

const rotation = z.looseObject({ sip_password: z.string(), sip_password_issued_at: wireTimestamp.optional() });
const issuedAt = z.looseObject({ sip_password_issued_at: wireTimestamp.optional() });

export const extension = definePbxObject({
  since: "0.1.0",
  token: "nsp:vgate:Extension",
  description:
    "An extension of a PBX: a SIP account with a dial number. The API shows its SIP password only when it " +
    "is issued, so `sipPassword` is a secret output kept from the state on every refresh; change " +
    "`passwordRotation` to issue a new one (the old one stops working).",
  path: "extensions",
  what: "extension",
  fields: {
    number: dialNumber
      .optional()
      .meta({ key: true, description: "Dial number, such as `101`; the API picks the lowest free one when unset." }),
    name: name.optional().meta({ description: "Display name; the API names it after the number when unset." }),
    userEmail: emailAsWritten
      .nullable()
      .optional()
      .meta({ description: "Email address of the person who uses the extension." }),
    callerIdName: z.string().nullable().optional().meta({ description: "Caller name shown on internal calls." }),
    callerIdNumber: e164.nullable().optional().meta({ description: "Caller number shown on outbound calls (E.164)." }),
    outboundClass: z.string().min(1).optional().meta({
      description: "Which outbound calls are allowed, such as `internal`, `local`, `national` or `international`.",
    }),
    record: z
      .string()
      .min(1)
      .optional()
      .meta({ description: "Call recording, such as `never`, `always` or `on_demand`." }),
    voicemail: apiObject('Voicemail box settings, such as `{enabled: true, pin: "1234", email: "..."}`.')
      .nullable()
      .optional(),
    forward: apiObject(
      'Call forwarding: destinations by case, such as `{busy: "voicemail:<id>", noanswer: ' +
        '"external:+4930..."}`; a key may be `always`, `busy` or `noanswer`.',
    )
      .nullable()
      .optional(),
    dnd: z.boolean().optional().meta({ description: "Do not disturb." }),
    ringTimeout: z
      .number()
      .int()
      .min(1)
      .optional()
      .meta({ description: "Seconds the extension rings before a call counts as unanswered." }),
    maxCalls: z.number().int().min(1).optional().meta({ description: "Calls the extension may have at once." }),
    passwordRotation: rotationTrigger(
      "Any string or number; changing it issues a new SIP password (in `sipPassword`). The API never sees it.",
    ),
  },
  outputs: {
    sipUsername: z
      .string()
      .optional()
      .meta({ description: "SIP user name of the extension, at the PBX's `sipDomain`." }),
    sipPasswordIssuedAt: z.string().optional().meta({ description: "When the current SIP password was issued." }),
    sipPassword: z
      .string()
      .optional()
      .meta({
        description:
          "SIP password. The API shows it once, when issued; it is kept from the state on refresh. Empty after " +
          "an import (change `passwordRotation` to get one).",
        secret: true,
        oneTime: true,
      }),
  },

  afterRead(ctx, state, prior) {
    if (
      prior.sipPassword &&
      prior.sipPasswordIssuedAt &&
      state.sipPasswordIssuedAt &&
      state.sipPasswordIssuedAt !== prior.sipPasswordIssuedAt
    ) {
      ctx.log(
        "warning",
        `the SIP password of extension ${String(state.number)} was issued again outside this program (at ` +
          `${String(state.sipPasswordIssuedAt)}); the stored sipPassword no longer works. Change ` +
          `passwordRotation to issue one this program knows.`,
      );
    }
  },

  async afterUpdate(ctx, extension, state, news, olds) {
    if (deepEqual(news.passwordRotation, olds.passwordRotation)) return state;
    const issued = await ctx.client.post(`${extension.path}/password`, undefined, {
      schema: rotation,
      signal: ctx.signal,
    });
    // The time of issue tells a later refresh whether someone else rotated the password.
    const at =
      issued.sip_password_issued_at ??
      (await ctx.client.get(extension.path, { schema: issuedAt, signal: ctx.signal })).sip_password_issued_at;
    return { ...state, sipPassword: issued.sip_password, sipPasswordIssuedAt: at };
  },
});
