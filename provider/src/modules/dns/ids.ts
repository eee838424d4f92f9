import { ownIdOf } from "../../framework/api/ids";

// Parsing of the ids the DNS resources are known by, checked before they are put in a path so
// that a malformed import id is a clear error instead of a request.

/** A resource whose id is its zone's id (the zone's settings, its verification). */
export function zoneIdOf(token: string, id: string): string {
  return ownIdOf(token, id, { what: "zone", form: "<zoneId>" });
}
