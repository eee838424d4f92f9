// The filter and the policy of a resolver service are documents of the service: one each, which
// the API replaces whole (PUT) and an empty PUT resets to its defaults. One definition serves
// both; the id is the service id.
import { z } from "zod";
import { defineResource, type CheckFailure, type OperationContext, type ResourceDefinition } from "../../framework/definition";
import { idRef } from "../../framework/api/wire";
import { metaOf } from "../../framework/engine/zod-walk";
import { documentAt, type DocumentModel } from "../../framework/api/shapes/document";
import { requireResolver, resolverService, serviceIdOf } from "./fields";
import { textListModel, type TextCodec } from "./text-lists";

type Shape = z.ZodRawShape;

interface ServiceDocumentSpec<F extends Shape> {
  token: string;
  description: string;
  /** Path segment under /services/{id}/. */
  path: string;
  fields: F;
  /** Fields kept as text on the wire. */
  codecs: { readonly [K in keyof F & string]?: TextCodec };
  check?: (args: z.output<z.ZodObject<F>>) => CheckFailure[];
  migrations?: ResourceDefinition["migrations"];
}

const documentState = z.object({
  // From the service, not the document.
  serviceName: z.string().meta({ description: "Name of the resolver service.", local: true }),
});

type Props = Record<string, unknown>;

export function defineServiceDocument<F extends Shape>(spec: ServiceDocumentSpec<F>): ResourceDefinition {
  // Every PUT sends the whole document.
  const fields = Object.fromEntries(Object.entries(spec.fields).map(([key, field]) => [key, (field as z.ZodType).meta({ create: true, ...metaOf(field as z.ZodType) })])) as Shape;
  const args = z.object({ serviceId: idRef("Id of the resolver service (`nsp:dns:getService` with its name finds it).").meta({ replace: true }), ...fields });
  const api = textListModel(z.object(fields), documentState, spec.codecs as Record<string, TextCodec>);
  const document = documentAt((serviceId) => `/services/${serviceId}/${spec.path}`, api as unknown as DocumentModel);
  const put = async (ctx: OperationContext, serviceId: string, values: Props): Promise<Props> => ({ ...(await document.put(ctx, serviceId, values)), serviceId });

  return defineResource({
    token: spec.token,
    description: spec.description,
    args,
    state: documentState,
    importId: "<serviceId>",
    ...(spec.migrations ? { migrations: spec.migrations } : {}),
    ...(spec.check ? { check: spec.check as (a: Props) => CheckFailure[] } : {}),

    async create(ctx, values) {
      const service = await requireResolver(ctx, spec.token, values.serviceId);
      return { id: values.serviceId, state: { ...(await put(ctx, values.serviceId, values)), serviceName: service.name } as never };
    },

    async read(ctx, id) {
      const serviceId = serviceIdOf(spec.token, id);
      const service = await resolverService(ctx, spec.token, serviceId);
      if (!service) return undefined;
      const current = await document.get(ctx, serviceId);
      return current && { id: serviceId, state: { ...current, serviceId, serviceName: service.name } as never };
    },

    async update(ctx, _id, news, olds) {
      return { ...(await put(ctx, news.serviceId, news)), serviceName: olds.serviceName } as never;
    },

    async delete(ctx, id) {
      await document.reset(ctx, serviceIdOf(spec.token, id));
    },
  }) as unknown as ResourceDefinition;
}
