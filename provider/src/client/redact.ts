// Helpers that keep secrets and huge bodies out of error messages and logs.

export const REDACTED = "[REDACTED]";

/** Longest server-provided text (message or body excerpt) copied into an error message. */
const MAX_TEXT_IN_MESSAGE = 300;

// Matches "Bearer <credential>" in echoed text, so that a server (or proxy) reflecting request
// headers cannot put any token into an error. The lookahead wants a digit or token punctuation so
// that prose such as "invalid Bearer token" stays readable.
const BEARER_RE = /\bBearer\s+(?=[^\s"',;}\]]*[0-9_.\-+/=~])[^\s"',;}\]]{6,}/gi;

/** Credentials this process obtained at run time; every scrub blanks them from then on. */
const registered = new Set<string>();

/**
 * Makes `scrub` blank `secret` wherever it is called, also where the caller does not know of
 * it (a credential minted for a partner's customer, passing through any client or log line).
 */
export function registerSecret(secret: string): void {
  if (secret) registered.add(secret);
}

/**
 * Removes every occurrence of the given secrets and of the registered ones (raw and
 * URL-encoded) and any `Bearer <credential>` from `text`. Empty secrets are ignored.
 */
export function scrub(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of [...secrets, ...registered]) {
    if (!secret) continue;
    out = out.split(secret).join(REDACTED);
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret) out = out.split(encoded).join(REDACTED);
  }
  return out.replace(BEARER_RE, `Bearer ${REDACTED}`);
}

/** Collapses whitespace and cuts `text` to `max` characters, saying how much was dropped. */
export function truncate(text: string, max = MAX_TEXT_IN_MESSAGE): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  return `${flat.slice(0, max)}… (${flat.length - max} more characters)`;
}

/** Copy of `headers` whose authorization value is replaced, for anything that gets attached to an error. */
export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    out[k] = k.toLowerCase() === "authorization" || k.toLowerCase() === "proxy-authorization" ? REDACTED : v;
  }
  return out;
}
