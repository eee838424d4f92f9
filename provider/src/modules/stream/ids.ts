import { ownIdOf } from "../../framework/api/ids";

/** A channel's id as the path wants it; a malformed import id is an error before any request. */
export function channelIdOf(token: string, id: string): string {
  return ownIdOf(token, id, { what: "stream channel", form: "<channelId>" });
}
