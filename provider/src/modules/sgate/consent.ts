import { z } from "zod";
import type { OperationContext } from "../../framework/definition";
import { messagingCollection } from "./fields";
import { e164, stringRef } from "../../framework/api/validators";
import { foundBy } from "../../framework/api/shapes/collection";

// The API cannot change a consent: every field is sent once, and a change replaces it.
const sentOnce = { create: true, replace: true } as const;

const TOKEN = "nsp:sgate:Consent";

const consentArgs = z.object({
  recipient: e164.meta({ key: true, description: "The number (E.164) that consented.", ...sentOnce }),
  proof: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(2048, "must be at most 2048 characters")
    .meta({
      description: "Evidence of the consent (a form submission id, a keyword reply, a scan reference...).",
      ...sentOnce,
    }),
  senderId: stringRef("Id of the sender (`nsp:sgate:Sender`) the consent is for; every sender when unset.")
    .optional()
    .meta({ ...sentOnce, key: true }),
  grantedAt: z
    .string()
    .regex(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/,
      "must be an ISO 8601 UTC timestamp such as 2026-01-31T12:00:00Z",
    )
    .optional()
    .meta({ description: "When consent was given; the time of the create when unset.", ...sentOnce }),
  source: z
    .enum(["web_form", "checkout", "keyword", "paper", "import", "api", "other"])
    .default("api")
    .meta({ description: "How consent was collected.", ...sentOnce }),
});

const consentState = z.object({
  status: z.string().meta({ description: "`granted` (a revoked consent reads as deleted)." }),
  createdAt: z.string().meta({ description: "When the consent was recorded." }),
});

const consents = messagingCollection(
  TOKEN,
  "/sgate/consents",
  { what: "consent", form: "<consentId>", example: "cns_0123456789ab" },
  consentArgs,
  consentState,
);
type ConsentWire = z.output<typeof consents.wire>;

async function findConsent(
  ctx: OperationContext,
  recipient: string | undefined,
  match: (c: ConsentWire) => boolean,
): Promise<ConsentWire | undefined> {
  return (await consents.list(ctx, recipient === undefined ? undefined : { q: recipient })).find(match);
}

export const consent = consents.resource({
  since: "0.1.0",
  list: { label: (c) => String(c.recipient) },
  description:
    "A recipient's consent to receive messages. The API cannot change a consent, so every change replaces " +
    "it. Deleting it withdraws the consent: the API keeps the record, marked revoked, and the resource " +
    "then reads as gone.",
  importId: "<consentId>",

  create: (ctx, args) =>
    // A granted consent of the recipient with the same proof and sender is this one.
    consents.create(
      ctx,
      `consent of ${args.recipient}`,
      args,
      foundBy(() =>
        findConsent(
          ctx,
          args.recipient,
          (c) =>
            c.recipient === args.recipient &&
            c.proof === args.proof &&
            c.status === "granted" &&
            (c.sender_id ?? undefined) === args.senderId,
        ),
      ),
    ),

  // There is no GET of one consent: it is found in the list, narrowed to its recipient when known.
  async read(ctx, id, prior) {
    const wanted = consents.idOf(id);
    const found = await findConsent(ctx, prior.recipient, (c) => c.id === wanted);
    return found && found.status !== "revoked" ? consents.toState(found) : undefined;
  },
});
