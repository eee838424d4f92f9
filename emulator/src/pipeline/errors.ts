// The error model of the API: every failure is `{"error":{"code","message"}}`. Handlers throw
// ApiError and the router renders it, so no handler ever writes an error body by hand.

export type ErrorCode =
  | "validation_error"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "limit_exceeded"
  | "rate_limited"
  | "upstream_error";

// The API leaves the status of each code "not shown"; this table is the emulator's choice and
// is mirrored in docs/api-assumptions.md.
export const ERROR_STATUS: Record<ErrorCode, number> = {
  validation_error: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  limit_exceeded: 422,
  rate_limited: 429,
  upstream_error: 502,
};

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, opts: { status?: number; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = opts.status ?? ERROR_STATUS[code];
    this.headers = opts.headers ?? {};
  }

  body(): { error: { code: ErrorCode; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }
}

export function notFound(what = "object"): ApiError {
  return new ApiError("not_found", `${what} not found`);
}

/** A validation error about one field; the message starts with the field name. */
export function invalid(field: string, message: string): ApiError {
  return new ApiError("validation_error", `${field}: ${message}`);
}
