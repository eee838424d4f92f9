import { NUMERIC_ID as NUMERIC } from "../../framework/ids";

/** A channel's id as the path wants it; a malformed import id is an error before any request. */
export function channelIdOf(token: string, id: string): string {
  if (!NUMERIC.test(id)) throw new Error(`${token}: "${id}" is not a stream channel id; a channel is known by its numeric id (<channelId>)`);
  return id;
}
