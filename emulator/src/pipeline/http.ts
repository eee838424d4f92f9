// What an answer is before fastify sends it, shared by the API pipeline and the control API.
import type { FastifyReply } from "fastify";
import { ApiError } from "./errors";

export const API_PREFIX = "/api/v1";
export const MAX_BODY_BYTES = 1024 * 1024;
/** Every method a path answers: the ones a path has no route for get 405 with an Allow header. */
export const ALL_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;
const JSON_TYPE = "application/json; charset=utf-8";

export interface Outcome {
  status: number;
  headers: Record<string, string>;
  /** JSON body; undefined sends no body (204). */
  body?: unknown;
}

export function errorOutcome(err: ApiError, headers: Record<string, string> = {}): Outcome {
  return { status: err.status, headers: { ...headers, ...err.headers }, body: err.body() };
}

/** Parses a JSON body; an empty body counts as `{}` so optional-only bodies may be omitted. */
export function parseJsonBody(buf: Buffer | undefined): unknown {
  const text = buf ? buf.toString("utf8") : "";
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new ApiError("validation_error", `body: malformed JSON (${(e as Error).message})`);
  }
}

/** Sends an answer as JSON (or with no body), whatever the handler returned. */
export function send(reply: FastifyReply, o: Outcome): FastifyReply {
  reply.code(o.status).headers(o.headers);
  if (o.body === undefined) return reply.send();
  return reply.type(JSON_TYPE).send(JSON.stringify(o.body));
}
