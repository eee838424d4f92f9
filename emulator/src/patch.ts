// A PATCH body onto its row when every field of the body is a column of the row (the rooms, IX
// members, destinations, voice numbers, meeting settings): present fields replace, absent ones
// keep. Bodies with fields that are not columns use assignDefined (collection.ts) with a key list.
export function assignPresent<R extends object>(row: R, body: { [K in keyof R]?: R[K] | undefined }): void {
  for (const [k, v] of Object.entries(body)) if (v !== undefined) (row as Record<string, unknown>)[k] = v;
}
