// A PATCH body onto its row when every field of the body is a column of the row (the rooms, IX
// members, destinations, voice numbers, meeting settings): present fields replace, absent ones
// keep. Bodies with fields that are not columns name their keys to assignDefined instead.
import { assignDefined } from "./collection";

export function assignPresent<R extends object>(row: R, body: Partial<R>): void {
  assignDefined<R, Partial<R>>(row, body, Object.keys(body) as Array<keyof R>);
}
