import { z } from "zod";
import { both, messagingCollection, optText } from "./fields";
import { fromSharedList, naturalKey } from "../../framework/api/shapes/collection";

const TOKEN = "nsp:sgate:Brand";

const brandArgs = z.object({
  legalName: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(255, "must be at most 255 characters")
    .meta({ key: true, description: "The company's legal name, as registered.", ...both }),
  displayName: optText(255, "The name recipients know the brand by."),
  taxId: optText(64, "Tax identifier (for a US company, the EIN)."),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .pipe(z.string().regex(/^[A-Z]{2}$/, "must be a two-letter country code such as US"))
    .nullable()
    .optional()
    .meta({ description: "Country of registration, a two-letter ISO 3166 code.", ...both }),
  vertical: optText(64, "Industry of the brand."),
  website: z
    .string()
    .trim()
    .regex(/^https?:\/\/\S+$/, "must be an http(s) URL")
    .nullable()
    .optional()
    .meta({ description: "The brand's website.", ...both }),
  contactEmail: z
    .string()
    .trim()
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "must be an email address")
    .nullable()
    .optional()
    .meta({ description: "Where the reviewers write.", ...both }),
  entityType: z
    .enum(["private", "public", "nonprofit", "government", "sole_proprietor"])
    .nullable()
    .optional()
    .meta({ description: "`private`, `public`, `nonprofit`, `government` or `sole_proprietor`.", ...both }),
  status: z
    .enum(["draft", "submitted"])
    .default("draft")
    .meta({
      description:
        "`draft`, or `submitted` to send the brand for review. A submitted brand cannot go back to draft (the API refuses).",
      ...both,
    }),
});

const brandState = z.object({
  campaignIds: z.array(z.string()).meta({ description: "Ids of the brand's campaigns (`nsp:sgate:Campaign`)." }),
  createdAt: z.string().meta({ description: "When the brand was created." }),
});

const brands = messagingCollection(
  TOKEN,
  "/sgate/brands",
  { what: "brand", form: "<brandId>", example: "brd_0123456789ab" },
  brandArgs,
  brandState,
  fromSharedList(),
);

export const brand = brands.resource({
  since: "0.1.0",
  list: { label: (b) => String(b.legal_name) },
  description:
    "A US 10DLC brand: the company behind the messages. It enters as a draft; set `status` to `submitted` " +
    "to send it for review. A brand that still has campaigns cannot be deleted: the API refuses and names " +
    "them, so delete the campaigns first.",
  importId: "<brandId>",

  create: (ctx, args) =>
    // The legal name with the tax id and country names one company: the natural key.
    brands.create(
      ctx,
      `brand ${args.legalName}`,
      args,
      naturalKey(
        (b) =>
          b.legal_name === args.legalName &&
          (b.tax_id ?? undefined) === (args.taxId ?? undefined) &&
          (b.country ?? undefined) === (args.country ?? undefined),
      ),
    ),
});
