// PBX-gateway ids are strings chosen by the API. They are checked before they go into a path,
// so that a malformed import id is a clear error instead of a request, and every id is
// URL-encoded in paths all the same.
import { z } from "zod";
import { childIdOf, ownIdOf } from "../../framework/api/ids";
import { GATEWAY_ID } from "../../framework/api/validators";

/** An input naming another gateway object by its Pulumi id (the API's string id). */
export function gatewayRef(what: string, description: string) {
  return z.string().regex(GATEWAY_ID, `must be the id of ${what}`).meta({ description });
}

export const pbxIdField = gatewayRef("a PBX", "Id of the PBX that holds the object (`nsp:vgate:Pbx`).");

export function pbxIdOf(token: string, id: string): string {
  return ownIdOf(token, id, { what: "PBX", form: "<pbx>", pattern: GATEWAY_ID });
}

/**
 * An object of a PBX, known as `<pbx>/<id>`; a bare `<id>` is accepted when the PBX is known
 * from the prior state.
 */
export function pbxChildOf(token: string, id: string, pbxId?: string): { pbxId: string; child: string } {
  const { parent, child } = childIdOf(token, id, "<pbx>/<id>", GATEWAY_ID, GATEWAY_ID, pbxId);
  return { pbxId: parent, child };
}

/** `/vgate/pbx/<pbx>` and below, each segment URL-encoded. */
export function pbxPath(pbxId: string, ...rest: string[]): string {
  return ["/vgate/pbx", pbxId, ...rest].map((s, i) => (i === 0 ? s : encodeURIComponent(s))).join("/");
}
