// The resolver API keeps lists as text (one item per line, or comma separated), and the policy's
// schedule as the text of a JSON object; the provider shows them as lists and an object. This
// wraps the wire model of a resource so that those fields travel as that text: joined in the
// bodies, a string in the wire schema, split again into the state.
import { z } from "zod";
import { wireModel, type WireModel } from "../../framework/api/fields";
import { wireName } from "../../framework/api/wire";

type Shape = z.ZodRawShape;

/** How one field is written as text. */
export interface TextCodec {
  join(wire: never): string;
  /** Undefined for text that holds no value. */
  split(text: string | null | undefined): unknown;
}

export const joinLines = (v: readonly unknown[]) => v.join("\n");
const joinItems = (v: readonly unknown[]) => v.join(",");
export const splitLines = (s: string | null | undefined) => (s ?? "").split("\n").filter((l) => l !== "");
const splitItems = (s: string | null | undefined) => (s ?? "").split(",").filter((l) => l !== "");

/** One item per line. */
export const lines: TextCodec = { join: joinLines, split: splitLines };
/** Comma separated. */
export const items: TextCodec = { join: joinItems, split: splitItems };
/** The text of a JSON object; empty text for none. */
export const jsonObject: TextCodec = {
  join: (v: Record<string, unknown>) => JSON.stringify(v),
  split: (s) => (s?.trim() ? (JSON.parse(s) as unknown) : undefined),
};

/**
 * `wireModel` for a resource whose `codecs` fields are lists on the Pulumi side and text on the
 * wire; every other field as wireModel has it.
 */
export function textListModel<A extends Shape, S extends Shape>(
  args: z.ZodObject<A>,
  state: z.ZodObject<S>,
  codecs: { readonly [K in keyof A & string]?: TextCodec },
  extra: Record<string, z.ZodType> = {},
): WireModel<A, S> {
  const fields = Object.entries(codecs as Record<string, TextCodec>).map(([key, codec]) => ({
    name: wireName(key, args.shape[key] as z.ZodType),
    codec,
  }));
  const text = Object.fromEntries(fields.map((f) => [f.name, z.string()]));
  const api = wireModel(args, state, { ...extra, ...text });
  const wire = api.wire;
  const joined = (body: Record<string, unknown>) => {
    for (const { name, codec } of fields)
      if (body[name] !== undefined && body[name] !== null && typeof body[name] !== "string")
        body[name] = codec.join(body[name] as never);
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
