import { z } from "zod";
import type { CheckFailure } from "../../framework/definition";
import { LANG, both, lang, messagingCollection } from "./fields";
import { foundBy } from "../../framework/api/shapes/collection";

const TOKEN = "nsp:sgate:Template";
const MAX_BODY = 1600;

const templateArgs = z.object({
  name: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(128, "must be at most 128 characters")
    .meta({ key: true, description: "Name of the template.", ...both }),
  defaultLang: lang.meta({
    description: "Language used when a send names none; `bodies` must have a text for it.",
    ...both,
  }),
  category: z
    .enum(["transactional", "marketing", "otp"])
    .meta({ description: "`transactional`, `marketing` or `otp`.", ...both }),
  bodies: z
    .record(
      z.string().regex(LANG, "keys must be language tags such as en or en-US"),
      z.string().min(1, "must not be empty").max(MAX_BODY, `must be at most ${MAX_BODY} characters`),
    )
    .meta({
      description:
        "The text in each language, by language tag; `{{name}}` marks a variable. New text creates a new " +
        "version of the template; earlier versions are kept.",
      ...both,
    }),
  submit: z
    .boolean()
    .optional()
    .meta({
      description:
        "Submit the newest version for approval: with the create, when turned on, and with every change of " +
        "text while it stays on. Turning it off does not withdraw a submitted version. The API does not " +
        "return it.",
      ...both,
      writeOnly: true,
    }),
});

const version = z
  .object({
    version: z.number().int().meta({ description: "Version number, from 1." }),
    bodies: z.record(z.string(), z.string()).meta({ description: "The text of this version, by language tag." }),
    status: z.string().meta({ description: "`draft` or `submitted` (then the API's review states)." }),
    createdAt: z.string().meta({ description: "When the version was created." }),
  })
  .meta({ typeName: "SgateTemplateVersion", description: "One version of a template." });

const templateState = z.object({
  version: z.number().int().meta({ description: "Number of the newest version." }),
  status: z
    .string()
    .meta({ description: "State of the newest version: `draft` or `submitted` (then the API's review states)." }),
  versions: z.array(version).meta({ description: "Every version, oldest first." }),
  createdAt: z.string().meta({ description: "When the template was created." }),
});

const templates = messagingCollection(
  TOKEN,
  "/sgate/templates",
  { what: "template", form: "<templateId>", example: "tpl_0123456789ab" },
  templateArgs,
  templateState,
);

export const template = templates.resource({
  since: "0.1.0",
  description:
    "A message template with a text per language. Every change of text creates a new version (earlier " +
    "ones are kept); `submit` sends the newest version for approval.",
  importId: "<templateId>",

  check(args) {
    const failures: CheckFailure[] = [];
    if (!(args.defaultLang in args.bodies))
      failures.push({ property: "bodies", reason: `has no text for the default language ${args.defaultLang}` });
    return failures;
  },

  create: (ctx, args) =>
    // The name is how templates are told apart in sends and in the console: the natural key.
    templates.create(
      ctx,
      `template ${args.name}`,
      args,
      foundBy(async () => {
        const found = (await templates.list(ctx)).find((t) => t.name === args.name);
        // The list has no versions; the object itself has.
        return found && (await templates.get(ctx, String(found.id)));
      }),
    ),

  update(ctx, id, news, olds, changedInputs) {
    // `submit` goes along with a change of text while it is on, and when it is turned on.
    const changed = templates.api.patchKeys(changedInputs).filter((k) => k !== "submit");
    const submit = news.submit && (changed.length > 0 || changedInputs.includes("submit"));
    return templates.update(ctx, id, news, olds, submit ? [...changed, "submit"] : changed);
  },
});
