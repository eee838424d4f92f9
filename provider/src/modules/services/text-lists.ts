// The resolver API keeps lists as text (one item per line, or comma separated); the provider
// shows them as lists. This wraps the wire model of a resource so that its list fields travel
// as that text: joined in the bodies, a string in the wire schema, split again into the state.
import { z } from "zod";
import { wireModel, type WireModel } from "../../framework/fields";
import { wireName } from "../../framework/wire";

type Shape = z.ZodRawShape;

/** How one list field is written as text. */
export interface TextCodec {
  join(wire: unknown[]): string;
  split(text: string | null | undefined): unknown[];
}

export const joinLines = (v: readonly unknown[]) => v.join("\n");
export const joinItems = (v: readonly unknown[]) => v.join(",");
export const splitLines = (s: string | null | undefined) => (s ?? "").split("\n").filter((l) => l !== "");
export const splitItems = (s: string | null | undefined) => (s ?? "").split(",").filter((l) => l !== "");

/** One item per line. */
export const lines: TextCodec = { join: joinLines, split: splitLines };
/** Comma separated. */
export const items: TextCodec = { join: joinItems, split: splitItems };

/**
 * `wireModel` for a resource whose `codecs` fields are lists on the Pulumi side and text on the
 * wire; every other field as wireModel has it.
 */
export function textListModel<A extends Shape, S extends Shape>(args: z.ZodObject<A>, state: z.ZodObject<S>, codecs: { readonly [K in keyof A & string]?: TextCodec }, extra: Record<string, z.ZodType> = {}): WireModel<A, S> {
  const api = wireModel(args, state, extra);
  const fields = Object.entries(codecs as Record<string, TextCodec>).map(([key, codec]) => ({ name: wireName(key, args.shape[key] as z.ZodType), codec }));
  const text = Object.fromEntries(fields.map((f) => [f.name, z.string()]));
  const wire = (api.wire as unknown as z.ZodObject).extend(text) as unknown as z.ZodType<Record<string, unknown>>;
  const joined = (body: Record<string, unknown>) => {
    for (const { name, codec } of fields) if (Array.isArray(body[name])) body[name] = codec.join(body[name]);
    return body;
  };
  const split = (raw: Record<string, unknown>) => {
    const out = { ...raw };
    for (const { name, codec } of fields) {
      const text = raw[name];
      out[name] = codec.split(typeof text === "string" ? text : undefined);
    }
    return out;
  };
  return {
    wire,
    createBody: (values) => joined(api.createBody(values)),
    patchKeys: api.patchKeys,
    patchBody: (values, changed) => joined(api.patchBody(values, changed)),
    toState: (raw) => api.toState(split(raw)),
  };
}
