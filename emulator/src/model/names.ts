// Domain names, host names and email addresses as every area takes them: lower-cased, without a
// trailing dot, and refused (null, or a validation error naming the field) when not valid.
import { invalid } from "../pipeline/errors";

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A list of host names, lower-cased without a trailing dot; a bad or repeated one is a validation
 * error on `hostnames[i]` (duplicates are refused rather than merged). `example` shows a good one.
 */
export function normalizeHostnames(list: readonly string[], example: string): string[] {
  const out = list.map((h, i) => {
    const n = normalizeZoneName(h);
    if (n === null) throw invalid(`hostnames[${i}]`, `must be a host name such as ${example}`);
    return n;
  });
  out.forEach((h, i) => {
    const first = out.indexOf(h);
    if (first !== i) throw invalid(`hostnames[${i}]`, `duplicate of hostnames[${first}] (${h})`);
  });
  return out;
}

/** Lowercases and strips one trailing dot; returns null unless it is a valid domain name. */
export function normalizeZoneName(input: string): string | null {
  const name = input.trim().toLowerCase().replace(/\.$/, "");
  if (name.length === 0 || name.length > 253) return null;
  const labels = name.split(".");
  // A zone is never a bare TLD here, so at least two labels.
  if (labels.length < 2) return null;
  if (!labels.every((l) => LABEL.test(l))) return null;
  if (/^\d+$/.test(labels[labels.length - 1] ?? "")) return null;
  return name;
}

/** The fully qualified name (without trailing dot) of a record name in `zone`. */
export function fqdn(name: string, zone: string): string {
  return name === "@" ? zone : `${name}.${zone}`;
}

const EMAIL = /^[^\s@/]+@[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/;

export function normalizeEmail(input: string): string | null {
  const e = input.trim().toLowerCase();
  return e.length <= 254 && EMAIL.test(e) ? e : null;
}
