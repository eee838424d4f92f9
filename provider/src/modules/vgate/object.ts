// The objects of a PBX (extensions, trunks, numbers, routes, IVRs, ring groups, queues, time
// conditions) are children of the PBX with string ids, and their patch takes the create fields.
import { z } from "zod";
import { defineChildCollection, type DefineChildCollectionSpec } from "../../framework/api/shapes/child-collection";
import type { ResourceDefinition } from "../../framework/definition";
import { metaOf } from "../../framework/definition/zod-walk";
import { pbxChildOf, pbxIdField, pbxPath } from "./ids";
import { timestamps } from "./fields";

type Shape = z.ZodRawShape;

interface PbxObjectSpec<F extends Shape, S extends Shape> extends Pick<DefineChildCollectionSpec<F, S>, "token" | "description" | "what" | "fields" | "outputs" | "check" | "afterRead" | "afterUpdate"> {
  /** Path segment under /vgate/pbx/{pbx}/. */
  path: string;
}

export function definePbxObject<F extends Shape, S extends Shape = Record<never, never>>(spec: PbxObjectSpec<F, S>): ResourceDefinition {
  // Every field the API sees is sent on create and on patch.
  const fields = Object.fromEntries(
    Object.entries(spec.fields).map(([key, field]) => {
      const roles = metaOf(field as z.ZodType);
      return [key, roles.local ? field : (field as z.ZodType).meta({ create: true, patch: true, ...roles })];
    }),
  ) as F;
  const definition = defineChildCollection({
    ...spec,
    fields,
    outputs: { ...(spec.outputs ?? {}), ...timestamps } as unknown as S,
    parent: { key: "pbxId", field: pbxIdField },
    collection: (pbxId) => pbxPath(pbxId, spec.path),
    segment: encodeURIComponent,
    idOnWire: z.string(),
    parseId: (token, id, pbxId) => {
      const { pbxId: parentId, child } = pbxChildOf(token, id, pbxId);
      return { parentId, child };
    },
    importId: "<pbx>/<id>",
    shownId: { form: "<id>", importable: false },
    inUse: (name) => `the gateway refuses to delete ${name} while something routes to it`,
  });
  return {
    ...definition,
    list: {
      path: `/vgate/pbx/{pbxId}/${spec.path}`,
      parent: { token: "nsp:vgate:Pbx", input: "pbxId" },
      label: (o, p) => `${String(p?.name)}-${String(o.name ?? o.number ?? o.id)}`,
    },
  };
}
