// The objects of a PBX (extensions, trunks, numbers, routes, IVRs, ring groups, queues, time
// conditions) are children of the PBX with string ids, and their patch takes the create fields.
import { z } from "zod";
import { childCollection, type ChildCollectionSpec, locatedBy } from "../../framework/api/shapes/child-collection";
import type { CheckFailure, ResourceDefinition } from "../../framework/definition";
import { metaOf } from "../../framework/definition/zod-walk";
import { pbxChildOf, pbxIdField } from "./ids";
import { timestamps } from "./fields";
import { postOnce, byGet, batched } from "../../framework/api/shapes/collection";

type Shape = z.ZodRawShape;
type Props = Record<string, unknown>;

interface PbxObjectSpec<F extends Shape, S extends Shape>
  extends Pick<ChildCollectionSpec<Shape, Shape>, "afterRead" | "afterUpdate"> {
  token: string;
  since?: string;
  description: string;
  /** What a person calls one, for messages. */
  what: string;
  /** Path segment under /vgate/pbx/{pbx}/. */
  path: string;
  fields: F;
  outputs?: S;
  check?: (args: Props) => CheckFailure[];
}

export function definePbxObject<F extends Shape, S extends Shape = Record<never, never>>(
  spec: PbxObjectSpec<F, S>,
): ResourceDefinition {
  // Every field the API sees is sent on create and on patch.
  const fields = Object.fromEntries(
    Object.entries(spec.fields).map(([key, field]) => {
      const roles = metaOf(field as z.ZodType);
      return [key, roles.local ? field : (field as z.ZodType).meta({ create: true, patch: true, ...roles })];
    }),
  ) as F;
  // The definition is one of many kinds the registry holds: its own types end here.
  const objects = childCollection<Shape, Shape>({
    token: spec.token,
    path: `/vgate/pbx/{pbxId}/${spec.path}`,
    parent: { token: "nsp:vgate:Pbx", input: "pbxId" },
    importId: "<pbx>/<id>",
    id: locatedBy((id, pbxId) => {
      const { pbxId: parent, child } = pbxChildOf(spec.token, id, pbxId);
      return { parent, child };
    }),
    args: z.object({ pbxId: pbxIdField.meta({ replace: true }), ...fields }) as z.ZodObject<Shape>,
    state: z.object({ ...(spec.outputs ?? {}), ...timestamps }) as z.ZodObject<Shape>,
    idOnWire: z.string(),
    // A refresh of many objects of one PBX reads them from one list when batching is on.
    read: batched(byGet),
    inUse: (id) => `the gateway refuses to delete ${spec.what} ${id} while something routes to it`,
    ...(spec.afterRead ? { afterRead: spec.afterRead } : {}),
    ...(spec.afterUpdate ? { afterUpdate: spec.afterUpdate } : {}),
  });
  return objects.resource({
    since: spec.since,
    description: spec.description,
    ...(spec.check ? { check: spec.check as never } : {}),
    list: { label: (o, p) => `${String(p?.name)}-${String(o.name ?? o.number ?? o.id)}` },
    create: (ctx, inputs) => objects.of(inputs.pbxId as string).create(ctx, spec.what, inputs, postOnce),
  }) as unknown as ResourceDefinition;
}
