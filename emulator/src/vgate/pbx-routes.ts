// PBX gateway (/vgate): cities and templates (seeded; the API cannot create them), PBXs with their
// move, resume and reload operations, and the call-path simulator.
import { z } from "zod";
import { assignDefined, collection } from "../model/collection";
import { ApiError } from "../pipeline/errors";
import { paginate, pagingOnlyQuery } from "../model/paging";
import { type Route, route } from "../pipeline/route";
import { nameField } from "./fields";
import { simulate, simulateBody } from "./simulate";
import {
  CITIES,
  DEFAULT_CITY,
  LANGUAGES,
  type PbxRow,
  TEMPLATE_IDS,
  acceptingCity,
  deletePbx,
  emptyObjects,
  newId,
  vgate,
} from "./state";
import { TEMPLATES, applyTemplate, templateView } from "./templates";
import { pbxView } from "./views";

function isTimeZone(tz: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const timezone = z.string().refine(isTimeZone, { error: "must be an IANA time zone such as Europe/Berlin" });
const cityId = z.string().min(1).max(32);
const settings = z
  .record(z.string(), z.unknown())
  .refine((s) => JSON.stringify(s).length <= 65536, { error: "must be at most 65536 characters as JSON" });

const createPbxBody = z.strictObject({
  name: nameField,
  city: cityId.optional(),
  timezone: timezone.optional(),
  template: z.enum(TEMPLATE_IDS).optional(),
  language: z.enum(LANGUAGES).optional(),
});

const patchPbxBody = z.strictObject({
  name: nameField.optional(),
  timezone: timezone.optional(),
  language: z.enum(LANGUAGES).optional(),
  settings: settings.optional(),
});

const pbxs = collection({
  path: "/vgate/pbx",
  item: "/vgate/pbx/{pbx}",
  what: "PBX",
  table: ({ store }) => vgate(store).pbxs,
  view: pbxView,
  create: {
    body: createPbxBody,
    build: (ctx): PbxRow => {
      const { store, body } = ctx;
      const t = vgate(store);
      const city = acceptingCity(body.city ?? DEFAULT_CITY);
      const now = store.timestamp();
      const id = newId(t, "pbx");
      const pbx: PbxRow = {
        id,
        account: ctx.account.name,
        name: body.name,
        city: city.id,
        timezone: body.timezone ?? city.timezone,
        template: body.template ?? "blank",
        language: body.language ?? "en",
        settings: {},
        status: "active",
        calls_up: 0,
        sip_domain: `${id.replace("_", "-")}.sip.nsp-emulator.test`,
        reloaded_at: null,
        created_at: now,
        updated_at: now,
        objects: emptyObjects(),
      };
      applyTemplate(t, pbx, now);
      return pbx;
    },
    // The template's extensions, with their SIP passwords: the only answer that shows them.
    answer: (pbx) => ({
      ...pbxView(pbx),
      extensions: [...pbx.objects.extension.values()].map((e) => ({
        id: e.id,
        number: e.number,
        name: e.name,
        sip_username: e.number,
        sip_password: e.sip_password,
      })),
    }),
  },
  patch: {
    body: patchPbxBody,
    apply: (ctx, pbx) => {
      const b = ctx.body;
      assignDefined(pbx, b, ["name", "timezone", "language"]);
      if (b.settings !== undefined) pbx.settings = structuredClone(b.settings);
      pbx.updated_at = ctx.store.timestamp();
    },
  },
  // Its numbers go back to the platform, and voice numbers stop ringing its extensions.
  remove: (ctx, pbx) => deletePbx(ctx.store, pbx),
});

/** POST /vgate/pbx/{pbx}/<op>: a change without a body, answered with the PBX. */
const pbxOperation = (op: "resume" | "reload", change: (pbx: PbxRow, now: string) => void): Route =>
  pbxs.member("POST", op, (pbx, ctx) => {
    change(pbx, ctx.store.timestamp());
    return pbxView(pbx);
  });

export const vgatePbxRoutes: Route[] = [
  route({
    method: "GET",
    path: "/vgate/cities",
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) => paginate(CITIES, ctx.query, (c) => ({ ...c })),
  }),

  route({
    method: "GET",
    path: "/vgate/templates",
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) => paginate(TEMPLATES, ctx.query, templateView),
  }),

  ...pbxs.routes,

  pbxs.member(
    "POST",
    "move",
    (pbx, ctx) => {
      if (ctx.body.city === pbx.city) return pbxView(pbx);
      const city = acceptingCity(ctx.body.city);
      if (pbx.calls_up > 0) {
        throw new ApiError(
          "conflict",
          `PBX ${pbx.id} cannot move while a call is up (${pbx.calls_up} up now); try again when the calls have ended`,
        );
      }
      pbx.city = city.id;
      pbx.updated_at = ctx.store.timestamp();
      return pbxView(pbx);
    },
    { body: z.strictObject({ city: cityId }) },
  ),

  pbxOperation("resume", (pbx) => {
    pbx.status = "active";
  }),
  pbxOperation("reload", (pbx, now) => {
    pbx.reloaded_at = now;
  }),

  pbxs.member("POST", "simulate", (pbx, ctx) => simulate(pbx, ctx.body, ctx.store.now()), { body: simulateBody }),
];
