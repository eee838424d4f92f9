// How large a value is on the wire between the plugin and the Pulumi engine, where properties
// travel as google.protobuf.Struct. Computed from the encoding rules, without building the
// protobuf objects (which, for a list of 100,000 records, would cost more memory than the list).

/**
 * The largest gRPC message the Pulumi engine accepts: `maxRPCMessageSize` (400 MiB) in
 * sdk/go/common/util/rpcutil/serve.go, applied to what the engine receives from a provider and
 * from a program. Larger answers fail with ResourceExhausted.
 */
export const ENGINE_MAX_MESSAGE_BYTES = 400 * 1024 * 1024;

export function varintSize(n: number): number {
  let size = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

/** A length-delimited field: tag, length, body. */
function delimited(bodySize: number): number {
  return 1 + varintSize(bodySize) + bodySize;
}

/** The body of a google.protobuf.Value holding `v` (the value without its own tag and length). */
function valueSize(v: unknown): number {
  if (v === null) return 2;
  switch (typeof v) {
    case "number":
      return 9;
    case "boolean":
      return 2;
    case "string":
      return delimited(Buffer.byteLength(v));
    case "object":
      if (Array.isArray(v)) {
        let body = 0;
        for (const item of v) body += delimited(valueSize(item));
        return delimited(body);
      }
      return delimited(structSize(v as Record<string, unknown>));
    case "undefined":
      return 2;
    default:
      return delimited(Buffer.byteLength(String(v)));
  }
}

/** The encoded size of a google.protobuf.Struct holding these properties. */
export function structSize(properties: Record<string, unknown>): number {
  let size = 0;
  for (const [key, value] of Object.entries(properties)) {
    if (value === undefined) continue;
    size += delimited(delimited(Buffer.byteLength(key)) + delimited(valueSize(value)));
  }
  return size;
}
