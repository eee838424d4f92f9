// The shape of most functions: one read of the API (a GET of one document, or a listed
// collection), its answer mapped to the result by the result's own schema (wire names,
// timestamps). What differs is how `read` fetches; the mapping is written once here.
import { z } from "zod";
import { defineFunction, type CheckFailure, type FunctionDefinition, type OperationContext } from "../../definition";
import { fromWire } from "../wire";

type Shape = z.ZodRawShape;
type Out<S extends Shape> = z.output<z.ZodObject<S>>;

interface ReadFunctionSpec<A extends Shape, R extends Shape> {
  /** `nsp:<module>:get<Thing>` */
  token: string;
  since?: string;
  description: string;
  /** Unset for a function without inputs. */
  args?: z.ZodObject<A>;
  result: z.ZodObject<R>;
  check?: (args: Out<A>) => CheckFailure[];
  /** The API's answer, in its own names; `result` maps it. */
  read(ctx: OperationContext, args: Out<A>): Promise<unknown>;
}

export function defineReadFunction<R extends Shape, A extends Shape = Record<never, never>>(
  spec: ReadFunctionSpec<A, R>,
): FunctionDefinition<A, R> {
  const { read, ...rest } = spec;
  return defineFunction({
    ...rest,
    args: spec.args ?? (z.object({}) as unknown as z.ZodObject<A>),
    async invoke(ctx, args) {
      return fromWire(spec.result, await read(ctx, args)) as Out<R>;
    },
  });
}

/** A list of objects of one named type (cities, templates, events), as the catalogue functions return. */
export function listOf<F extends Shape>(typeName: string, description: string, listDescription: string, fields: F) {
  return z.array(z.object(fields).meta({ typeName, description })).meta({ description: listDescription });
}
