// The objects of a PBX (extensions, trunks, numbers, routes, IVRs, ring groups, queues, time
// conditions) share one shape of API: list/create under /vgate/pbx/{pbx}/<path>, get, patch
// (the create fields) and delete under .../<path>/{id}. This helper turns a description of the
// fields into a resource definition; the resources differ only in path, fields and the few
// hooks below.
import { z } from "zod";
import { isApiError, isNotFound } from "../../client";
import { defineResource, type CheckFailure, type OperationContext, type ResourceDefinition } from "../../framework/definition";
import { body, fromWire } from "../../framework/wire";
import { unwrap } from "../../framework/zod-walk";
import { pbxChildOf, pbxIdField, pbxPath } from "./ids";
import { timestamps } from "./fields";

type Shape = z.ZodRawShape;
type Props = Record<string, unknown> & { pbxId: string };

export const objectWire = z.looseObject({ id: z.string() });
export type ObjectWire = z.output<typeof objectWire>;

export interface PbxObjectSpec<F extends Shape, S extends Shape> {
  token: string;
  description: string;
  /** Path segment under /vgate/pbx/{pbx}/. */
  path: string;
  /** What a person calls one, for messages. */
  what: string;
  /** The API's create and patch fields, camelCase. */
  fields: F;
  /** Outputs beyond the inputs (timestamps are added). */
  outputs?: S;
  /** Inputs the API never sees (triggers); they are not sent. */
  local?: readonly (keyof F & string)[];
  secrets?: readonly ((keyof F | keyof S) & string)[];
  writeOnly?: readonly (keyof F & string)[];
  oneTime?: readonly (keyof S & string)[];
  check?: (args: Record<string, unknown>) => CheckFailure[];
  /** A look at what a refresh found, against the prior state (to warn about out-of-band changes). */
  afterRead?: (ctx: OperationContext, state: Props, prior: Partial<Props>) => void;
  /** Extra work after the patch in an update (a password rotation). */
  afterUpdate?: (ctx: OperationContext, pbxId: string, id: string, state: Props, news: Props, olds: Props, changed: readonly string[]) => Promise<Props>;
}

export function definePbxObject<F extends Shape, S extends Shape = Record<never, never>>(spec: PbxObjectSpec<F, S>): ResourceDefinition {
  const args = z.object({ pbxId: pbxIdField, ...spec.fields });
  const state = z.object({ ...(spec.outputs ?? {}), ...timestamps });
  const properties = args.extend(state.shape);
  const local = new Set<string>(spec.local ?? []);
  const apiFields = Object.keys(spec.fields).filter((k) => !local.has(k));
  const nullable = new Set(apiFields.filter((k) => unwrap(spec.fields[k] as z.ZodType).nullable));

  const toState = (pbxId: string, raw: ObjectWire): Props => ({ ...(fromWire(properties, raw) as Props), pbxId });
  const path = (pbxId: string, ...rest: string[]) => pbxPath(pbxId, spec.path, ...rest);

  return defineResource({
    token: spec.token,
    description: spec.description,
    args,
    state,
    // An object cannot move between PBXs; everything else is patched.
    replaceOnChanges: ["pbxId"],
    secrets: spec.secrets as never,
    writeOnly: spec.writeOnly as never,
    oneTime: spec.oneTime as never,
    importId: "<pbx>/<id>",
    ...(spec.check ? { check: spec.check as never } : {}),

    async create(ctx, inputs) {
      const a = inputs as Props;
      const raw = await ctx.client.post(path(a.pbxId), body(args, a, apiFields), { schema: objectWire, signal: ctx.signal });
      return { id: raw.id, state: toState(a.pbxId, raw) as never };
    },

    async read(ctx, id, prior) {
      const { pbxId, child } = pbxChildOf(spec.token, id, (prior as Partial<Props>).pbxId);
      const single = () =>
        ctx.client.get(path(pbxId, child), { schema: objectWire, signal: ctx.signal }).catch((e: unknown) => {
          // A PBX that is gone takes its objects with it.
          if (isNotFound(e)) return undefined;
          throw e;
        });
      // A refresh of many objects of one PBX reads them from one list when batching is on.
      const raw = await ctx.lists.find(path(pbxId), child, objectWire, ctx.signal, single);
      if (!raw) return undefined;
      const state = toState(pbxId, raw);
      spec.afterRead?.(ctx, state, prior as Partial<Props>);
      return { id: child, state: state as never };
    },

    async update(ctx, id, news, olds, changedInputs) {
      const n = news as Props;
      const o = olds as Props;
      const { pbxId, child } = pbxChildOf(spec.token, id, o.pbxId);
      // An input the program stopped setting: cleared where the API takes null, else left as it is.
      const changed = apiFields.filter((k) => changedInputs.includes(k as never) && (n[k] !== undefined || nullable.has(k)));
      let state: Props = { ...o, ...n };
      if (changed.length) {
        const values = Object.fromEntries(changed.map((k) => [k, n[k] ?? null]));
        const raw = await ctx.client.patch(path(pbxId, child), body(args, values, changed), { schema: objectWire, signal: ctx.signal });
        state = toState(pbxId, raw);
        ctx.progress(child, state);
      }
      if (spec.afterUpdate) state = await spec.afterUpdate(ctx, pbxId, child, state, n, o, changedInputs);
      return state as never;
    },

    async delete(ctx, id, olds) {
      const { pbxId, child } = pbxChildOf(spec.token, id, (olds as Props).pbxId);
      try {
        await ctx.client.delete(path(pbxId, child), { signal: ctx.signal });
      } catch (e) {
        if (isApiError(e) && e.code === "conflict") {
          throw new Error(`${spec.token}: the gateway refuses to delete ${spec.what} ${child} while something routes to it: ${e.serverMessage || e.message}`, { cause: e });
        }
        throw e;
      }
    },
  }) as unknown as ResourceDefinition;
}
