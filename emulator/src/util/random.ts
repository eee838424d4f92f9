import { randomBytes } from "node:crypto";

export const TOKEN_RE = /^svc_[0-9a-f]{32}$/;

export function newToken(): string {
  return `svc_${randomBytes(16).toString("hex")}`;
}

export function randomBase64(bytes: number): string {
  return randomBytes(bytes).toString("base64");
}

/**
 * mulberry32: tiny, fast and good enough to make fault injection reproducible from a seed.
 * Not for anything secret.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
