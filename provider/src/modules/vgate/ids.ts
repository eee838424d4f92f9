// PBX-gateway ids are strings chosen by the API. They are checked before they go into a path,
// so that a malformed import id is a clear error instead of a request, and every id is
// URL-encoded in paths all the same.
import { z } from "zod";
import { ownIdOf } from "../../framework/api/ids";

const ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

/** An input naming another gateway object by its Pulumi id (the API's string id). */
export function gatewayRef(what: string, description: string) {
  return z.string().regex(ID, `must be the id of ${what}`).meta({ description });
}

export const pbxIdField = gatewayRef("a PBX", "Id of the PBX that holds the object (`nsp:vgate:Pbx`).");

export function pbxIdOf(token: string, id: string): string {
  return ownIdOf(token, id, { what: "PBX", form: "<pbx>", pattern: ID });
}

/**
 * An object of a PBX, known as `<pbx>/<id>`; a bare `<id>` is accepted when the PBX is known
 * from the prior state.
 */
export function pbxChildOf(token: string, id: string, pbxId?: string): { pbxId: string; child: string } {
  const parts = id.split("/");
  if (parts.length === 2 && ID.test(parts[0]!) && ID.test(parts[1]!)) return { pbxId: parts[0]!, child: parts[1]! };
  if (parts.length === 1 && ID.test(id) && pbxId !== undefined && ID.test(pbxId)) return { pbxId, child: id };
  throw new Error(`${token}: id "${id}" must have the form <pbx>/<id>`);
}

/** `/vgate/pbx/<pbx>` and below, each segment URL-encoded. */
export function pbxPath(pbxId: string, ...rest: string[]): string {
  return ["/vgate/pbx", pbxId, ...rest].map((s, i) => (i === 0 ? s : encodeURIComponent(s))).join("/");
}
