import { z } from "zod";
import { singleton } from "../../framework/api/shapes/singleton";
import { formOf, idFormat } from "../../framework/api/ids";
import { displayName, ORG_ID } from "../../framework/api/validators";

const TOKEN = "nsp:org:Organization";
const ORG = idFormat("organisation", { name: "orgId", pattern: ORG_ID, example: "org_0123456789abcdef" });

const orgArgs = z.object({
  name: displayName
    .optional()
    .meta({ description: "Display name of the organisation; the API's (the account name) when unset.", patch: true }),
  slug: z
    .string()
    .regex(
      /^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])$/,
      "must be 3 to 63 lower-case letters, digits or '-', starting and ending with a letter or digit",
    )
    .optional()
    .meta({
      description: "Short name used in addresses; unique across the platform. The API's when unset.",
      patch: true,
    }),
});

const orgState = z.object({
  owner: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "Email address of the account holder, who owns the organisation." }),
  apps: z
    .object({
      mail: z.boolean().meta({ description: "Mail." }),
      meet: z.boolean().meta({ description: "Meetings." }),
      chat: z.boolean().meta({ description: "Chat." }),
      drive: z.boolean().meta({ description: "Drive." }),
    })
    .meta({
      typeName: "OrganizationApps",
      description: "Applications switched on for everybody (manage them with `nsp:org:Apps`).",
    }),
  createdAt: z.string().meta({ description: "When the organisation was created." }),
});

// The account's organisation: `GET /org` creates it the first time.
export const org = singleton({
  token: TOKEN,
  path: "/org",
  args: orgArgs,
  state: orgState,
  idOnWire: z.string(),
  id: ORG,
  objectId: (raw) => String(raw.id),
  stays: "its current name and slug",
});

// The API cannot unset a name or slug; dropping one from the program leaves the last value.
export const organization = org.resource({
  since: "0.1.0",
  notListed: "made by the API with the account (one per account); import it by hand if its settings are to be managed",
  description:
    "The account's organisation. Every account has exactly one, created by the API the first time it is " +
    "read, so this resource adopts it and manages its name and slug; inputs left unset keep the API's " +
    "values. The organisation cannot be deleted: deleting this resource only forgets it (and says so), " +
    "leaving name and slug as they are. The import id is the organisation's `id` as `GET /org` shows it.",
  importId: formOf(ORG),
});
