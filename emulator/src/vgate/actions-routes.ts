// PBX-gateway operations beside plain CRUD: SIP password rotation, the extension CSV import, the
// trunk test, a number's flow, platform numbers (available, buy) and the prepaid balance.
import { z } from "zod";
import { ApiError } from "../pipeline/errors";
import { paginate, pagingOnlyQuery } from "../model/paging";
import { type Route, route } from "../pipeline/route";
import { formatIssues } from "../pipeline/validation";
import { applyFlow, flowBody, validateFlow } from "./flow";
import { type NumberRow, balanceOf, newId, newSipPassword, vgate } from "./state";
import { objectView } from "./views";
import { extensionSpec, extensions, newObject, numbers, pbxEnv, trunkState, trunks } from "./objects-routes";

const MAX_IMPORT_ROWS = 1000;
const IMPORT_COLUMNS = ["number", "name", "user_email"] as const;

/** One CSV line into fields: commas separate, double quotes quote ("" is a quote). */
function csvFields(line: string): string[] | null {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"' && cur === "") quoted = true;
    else if (c === ",") {
      out.push(cur.trim());
      cur = "";
    } else cur += c;
  }
  if (quoted) return null;
  out.push(cur.trim());
  return out;
}

const importRow = extensionSpec.create.pick({ number: true, name: true, user_email: true });

export const vgateActionRoutes: Route[] = [
  extensions.member("POST", "password", (ext, ctx) => {
    ext.sip_password = newSipPassword();
    ext.sip_password_issued_at = ext.updated_at = ctx.store.timestamp();
    return {
      id: ext.id,
      number: ext.number,
      sip_username: ext.number,
      sip_password: ext.sip_password,
      sip_password_issued_at: ext.sip_password_issued_at,
    };
  }),

  route({
    method: "POST",
    path: "/vgate/pbx/{pbx}/extensions/import",
    scope: "write",
    body: z.strictObject({ csv: z.string().max(1_000_000) }),
    handler: (ctx) => {
      const e = pbxEnv(ctx, ctx.params.pbx);
      const lines = ctx.body.csv.split(/\r?\n/);
      const rows: Array<Record<string, unknown>> = [];
      let created = 0;
      let dataRows = 0;
      lines.forEach((text, i) => {
        const line = i + 1;
        if (text.trim() === "") return;
        const fields = csvFields(text);
        if (i === 0 && fields?.[0]?.toLowerCase() === "number") return;
        if (++dataRows > MAX_IMPORT_ROWS) {
          rows.push({ line, status: "failed", error: `at most ${MAX_IMPORT_ROWS} rows per import` });
          return;
        }
        if (!fields) {
          rows.push({ line, status: "failed", error: "unterminated quote" });
          return;
        }
        if (fields.length > IMPORT_COLUMNS.length) {
          rows.push({
            line,
            status: "failed",
            error: `expected at most ${IMPORT_COLUMNS.length} columns: ${IMPORT_COLUMNS.join(",")}`,
          });
          return;
        }
        const body: Record<string, string> = {};
        IMPORT_COLUMNS.forEach((col, j) => {
          const v = fields[j];
          if (v !== undefined && v !== "") body[col] = v;
        });
        const parsed = importRow.safeParse(body);
        if (!parsed.success) {
          rows.push({ line, status: "failed", error: formatIssues(parsed.error.issues, "row") });
          return;
        }
        try {
          const row = newObject(extensionSpec, e, parsed.data);
          e.pbx.objects.extension.set(row.id, row);
          created++;
          rows.push({ line, status: "created", id: row.id, number: row.number, sip_password: row.sip_password });
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          rows.push({ line, status: "failed", error: err.message });
        }
      });
      return { created, failed: rows.length - created, rows };
    },
  }),

  trunks.member("POST", "test", (trunk, ctx) => {
    trunk.state = trunkState(trunk);
    trunk.checked_at = ctx.store.timestamp();
    const detail =
      trunk.state === "failed"
        ? `no answer from ${trunk.host}:${trunk.port}`
        : trunk.mode === "register"
          ? `registered as ${trunk.username} at ${trunk.host}`
          : "peer answers OPTIONS";
    return { trunk_id: trunk.id, state: trunk.state, checked_at: trunk.checked_at, detail };
  }),

  numbers.member(
    "PUT",
    "flow",
    (number, ctx) => {
      const { pbx } = pbxEnv(ctx, ctx.params.pbx);
      validateFlow(pbx, ctx.body);
      applyFlow(vgate(ctx.store), pbx, number, ctx.body, ctx.store.timestamp());
      return objectView("number", number);
    },
    { body: flowBody },
  ),

  route({
    method: "GET",
    path: "/vgate/numbers/available",
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) =>
      paginate(
        vgate(ctx.store).platformNumbers.filter((p) => p.held_by === null),
        ctx.query,
        (p) => ({ id: p.id, e164: p.e164, city: p.city, monthly_micros: p.monthly_micros }),
      ),
  }),

  route({
    method: "POST",
    path: "/vgate/pbx/{pbx}/numbers/buy",
    scope: "write",
    body: z.strictObject({ number_id: z.string().min(1).max(64) }),
    handler: (ctx) => {
      const { pbx } = pbxEnv(ctx, ctx.params.pbx);
      const offer = vgate(ctx.store).platformNumbers.find((p) => p.id === ctx.body.number_id);
      if (!offer) throw new ApiError("validation_error", `number_id: no platform number ${ctx.body.number_id}`);
      if (offer.held_by !== null) throw new ApiError("conflict", `number_id: ${offer.e164} has been bought already`);
      const balance = balanceOf(ctx.store, ctx.account.name);
      if (balance.balance_micros < offer.monthly_micros) {
        throw new ApiError(
          "limit_exceeded",
          `balance: ${balance.balance_micros} micros left, the first month costs ${offer.monthly_micros}; top up in the console`,
        );
      }
      const now = ctx.store.timestamp();
      const row: NumberRow = {
        id: newId(vgate(ctx.store), "num"),
        pbx_id: pbx.id,
        e164: offer.e164,
        trunk_id: null,
        source: "platform",
        flow: null,
        flow_group_id: null,
        flow_timecond_id: null,
        created_at: now,
        updated_at: now,
      };
      pbx.objects.number.set(row.id, row);
      offer.held_by = `${pbx.id}/${row.id}`;
      balance.balance_micros -= offer.monthly_micros;
      balance.movements.push({
        at: now,
        amount_micros: -offer.monthly_micros,
        kind: "number",
        note: `first month of ${offer.e164}`,
      });
      ctx.status(201);
      return objectView("number", row);
    },
  }),

  route({
    method: "GET",
    path: "/vgate/balance",
    scope: "read",
    handler: (ctx) => {
      const b = balanceOf(ctx.store, ctx.account.name);
      return { balance_micros: b.balance_micros, currency: "EUR", movements: b.movements.slice(-20).reverse() };
    },
  }),

  route({
    method: "POST",
    path: "/vgate/balance/topup",
    scope: "write",
    body: z.strictObject({ amount_micros: z.int().min(1), idempotency_key: z.string().min(1).max(200) }),
    handler: () => {
      throw new ApiError("forbidden", "top-ups are console only and refuse API tokens");
    },
  }),
];
