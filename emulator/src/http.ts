// Low-level request/response helpers shared by the API pipeline and the control API.
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError } from "./errors";

export const API_PREFIX = "/api/v1";
export const MAX_BODY_BYTES = 1024 * 1024;
/** Past this we stop draining an oversized body and close the connection after answering. */
const DRAIN_LIMIT_FACTOR = 16;

export interface BodyRead {
  buf: Buffer;
  oversize: boolean;
  /** The connection must close after the answer (body not fully drained). */
  mustClose: boolean;
  /** The client went away while sending. */
  aborted: boolean;
}

/**
 * Reads the request body, keeping at most `max` bytes. An oversized body is still drained (up
 * to a bound) so the client reads our 413 instead of a connection reset mid-upload.
 */
export function readBody(req: IncomingMessage, max: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const hardMax = max * DRAIN_LIMIT_FACTOR;
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (r: Omit<BodyRead, "buf">) => {
      if (done) return;
      done = true;
      resolve({ ...r, buf: r.oversize ? Buffer.alloc(0) : Buffer.concat(chunks) });
    };
    const declared = Number(req.headers["content-length"] ?? "0");
    if (Number.isFinite(declared) && declared > hardMax) {
      finish({ oversize: true, mustClose: true, aborted: false });
      return;
    }
    req.on("data", (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
      else if (size > hardMax) {
        req.pause();
        finish({ oversize: true, mustClose: true, aborted: false });
      }
    });
    req.on("end", () => finish({ oversize: size > max, mustClose: false, aborted: false }));
    req.on("error", () => finish({ oversize: false, mustClose: true, aborted: true }));
    req.on("close", () => {
      if (!req.complete) finish({ oversize: false, mustClose: true, aborted: true });
    });
  });
}

export interface Outcome {
  status: number;
  headers: Record<string, string>;
  /** JSON body; undefined sends no body (204). */
  body?: unknown;
}

export function errorOutcome(err: ApiError, headers: Record<string, string> = {}): Outcome {
  return { status: err.status, headers: { ...headers, ...err.headers }, body: err.body() };
}

export function send(res: ServerResponse, o: Outcome, close = false): void {
  if (res.destroyed || res.headersSent) return;
  for (const [k, v] of Object.entries(o.headers)) res.setHeader(k, v);
  if (close) res.setHeader("Connection", "close");
  res.statusCode = o.status;
  if (o.body === undefined) {
    res.end();
  } else {
    const text = JSON.stringify(o.body);
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    res.setHeader("Content-Length", Buffer.byteLength(text));
    res.end(text);
  }
}

/** Parses a JSON body; an empty body counts as `{}` so optional-only bodies may be omitted. */
export function parseJsonBody(buf: Buffer): unknown {
  const text = buf.toString("utf8");
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new ApiError("validation_error", `body: malformed JSON (${(e as Error).message})`);
  }
}
