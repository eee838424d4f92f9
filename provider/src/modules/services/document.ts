// The filter and the policy of a resolver service are documents of the service: one each, which
// the API replaces whole (PUT) and an empty PUT resets to its defaults. One definition serves
// both, on the document shape; the id is the service id.
import { z } from "zod";
import type { CheckFailure, ResourceDefinition } from "../../framework/definition";
import { idRef } from "../../framework/api/wire";
import { metaOf } from "../../framework/definition/zod-walk";
import { defineDocument, type DocumentModel } from "../../framework/api/shapes/document";
import { requireResolver, resolverService, serviceIdOf } from "./fields";
import { textListModel, type TextCodec } from "./text-lists";

type Shape = z.ZodRawShape;

interface ServiceDocumentSpec<F extends Shape> {
  token: string;
  since?: string;
  notListed?: string;
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

export function defineServiceDocument<F extends Shape>(spec: ServiceDocumentSpec<F>): ResourceDefinition {
  // Every PUT sends the whole document.
  const fields = Object.fromEntries(
    Object.entries(spec.fields).map(([key, field]) => [
      key,
      (field as z.ZodType).meta({ create: true, ...metaOf(field as z.ZodType) }),
    ]),
  ) as Shape;
  const args = z.object({
    serviceId: idRef("Id of the resolver service (`nsp:dns:getService` with its name finds it).").meta({
      replace: true,
    }),
    ...fields,
  });
  const model = textListModel(z.object(fields), documentState, spec.codecs as Record<string, TextCodec>);
  return defineDocument({
    token: spec.token,
    since: spec.since,
    notListed: spec.notListed,
    description: spec.description,
    args,
    state: documentState,
    importId: "<serviceId>",
    ...(spec.migrations ? { migrations: spec.migrations } : {}),
    ...(spec.check ? { check: spec.check as (a: Record<string, unknown>) => CheckFailure[] } : {}),
    parent: "serviceId",
    idOf: (id) => serviceIdOf(spec.token, id),
    path: (serviceId) => `/services/${serviceId}/${spec.path}`,
    model: model as unknown as DocumentModel,
    // An empty PUT resets the document to the API's defaults.
    emptied: {},
    // The service's name, looked up at create and at each read, is kept through an update.
    toState: (raw, prior) => ({ ...model.toState(raw), serviceName: prior.serviceName }),
    async parentState(ctx, serviceId, mustExist) {
      const service = mustExist
        ? await requireResolver(ctx, spec.token, serviceId)
        : await resolverService(ctx, spec.token, serviceId);
      return service && { serviceName: service.name };
    },
  });
}
