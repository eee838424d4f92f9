import { z } from "zod";
import type { CheckFailure } from "../../framework/definition";
import { idRef } from "../../framework/api/wire";
import { domainObjects, localPartKey } from "./fields";
import { email } from "../../framework/api/validators";
import { STRING_ID } from "../../framework/api/ids";
import { naturalKey, fromList } from "../../framework/api/shapes/collection";
import { childIds } from "../../framework/api/shapes/child-collection";

const TOKEN = "nsp:mail:Group";
const MAX_MEMBERS = 1000;

const member = z
  .object({
    address: email.meta({ description: "The member's address. Stored lower-case." }),
    role: z
      .enum(["member", "manager", "owner"])
      .default("member")
      .meta({ description: "`member`, `manager` (may moderate) or `owner`." }),
  })
  .meta({ typeName: "MailGroupMember", description: "One member of a group." });

// Every field the API takes is sent on create and on patch.
const groupArgs = z.object({
  domainId: idRef("Id of the mail domain (`nsp:mail:Domain`).").meta({ replace: true }),
  localPart: localPartKey("The group's local part (before `@`).", "patch"),
  name: z.string().max(128, "must be at most 128 characters").optional().meta({
    description: "Name of the group; the API uses the local part when unset.",
    create: true,
    patch: true,
    clearedAs: null,
  }),
  members: z
    .array(member)
    .max(MAX_MEMBERS, `must have at most ${MAX_MEMBERS} items`)
    .default([])
    .meta({ description: `Who receives the group's mail, at most ${MAX_MEMBERS}.`, create: true, patch: true }),
  allowExternalSenders: z.boolean().default(false).meta({
    description: "Whether senders outside the organisation may write to the group.",
    create: true,
    patch: true,
  }),
  membersCanSend: z
    .boolean()
    .default(true)
    .meta({ description: "Whether members may send to the group.", create: true, patch: true }),
  enabled: z.boolean().default(true).meta({ description: "Whether the group delivers.", create: true, patch: true }),
  archive: z
    .boolean()
    .default(false)
    .meta({ description: "Whether the group's mail is archived.", create: true, patch: true }),
  posting: z.enum(["anyone", "org", "members"]).default("members").meta({
    description: "Who may post: `anyone`, the organisation (`org`), or `members`.",
    create: true,
    patch: true,
  }),
  replyTo: z
    .enum(["sender", "group"])
    .default("sender")
    .meta({ description: "Where replies go: to the `sender` or to the `group`.", create: true, patch: true }),
  subjectTag: z
    .string()
    .max(32, "must be at most 32 characters")
    .nullable()
    .optional()
    .meta({ description: "Tag put before the subject, such as `[team]`.", create: true, patch: true }),
  replaceAlias: z
    .boolean()
    .optional()
    .meta({
      description:
        "When an alias already holds the local part, replace (delete) it instead of failing. Sent with the " +
        "create and with a rename; the API does not return it.",
      create: true,
      patch: true,
      writeOnly: true,
    }),
});

const groupState = z.object({
  address: z.string().meta({ description: "The group's address." }),
  createdAt: z.string().meta({ description: "When the group was created." }),
});

// Listed and created under the domain, patched and deleted at /mail/groups/<id>. There is no GET
// of one group: it is found in its domain's list.
const groups = domainObjects(TOKEN, "groups", "<groupId>", {
  id: childIds(STRING_ID),
  itemsAt: "/mail/groups",
  args: groupArgs,
  state: groupState,
  idOnWire: z.string(),
  read: fromList(),
  patchBody(_patch, news, changedInputs, api) {
    // replaceAlias alone changes nothing the API keeps; it goes along with a patch when set.
    const changed = api.patchKeys(changedInputs).filter((k) => k !== "replaceAlias");
    if (changed.length === 0) return {};
    // The API lists local_part as required in the patch body, so it is always sent.
    return api.patchBody(news, ["localPart", ...changed, ...(news.replaceAlias ? ["replaceAlias"] : [])]);
  },
});

export const group = groups.resource({
  since: "0.1.0",
  list: { label: (g, d) => `${String(g.local_part)}@${String(d?.name)}`, zoneOf: (_g, d) => d?.zone_id },
  description: "A mail group (distribution list) in a mail domain: mail to its address goes to every member.",

  check(args) {
    const failures: CheckFailure[] = [];
    const seen = new Map<string, number>();
    args.members.forEach((m, i) => {
      const first = seen.get(m.address);
      if (first !== undefined)
        failures.push({ property: "members", reason: `${m.address} is listed twice (items ${first} and ${i})` });
      else seen.set(m.address, i);
    });
    return failures;
  },

  // A local part names one group in its domain: the natural key.
  create: (ctx, args) =>
    groups.of(args.domainId).create(
      ctx,
      `group ${args.localPart}`,
      args,
      naturalKey((g) => g.local_part === args.localPart),
    ),
});
