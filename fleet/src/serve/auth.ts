// Who may read the page. On a loopback address with no token, anyone on this machine (the same
// trust as the database URL in their environment), but only through a loopback host name: a web
// page elsewhere that points a name of its own at 127.0.0.1 (DNS rebinding) is refused. With a
// token (FLEET_UI_TOKEN, required on any other address), every request must carry it, as
//   - `Authorization: Bearer <token>` (scripts, curl), or
//   - a cookie the page sets when opened once as `/?token=<token>`: the answer sets it (HttpOnly,
//     SameSite=Strict) and redirects to the same address without the token, so it stays in
//     neither the address bar, the history nor a Referer. The cookie holds a hash of the token,
//     not the token.
import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";

export const TOKEN_ENV = "FLEET_UI_TOKEN";
export const COOKIE = "nsp_fleet_ui";
export const MIN_TOKEN_LENGTH = 16;

/** 127.0.0.0/8, ::1 and localhost: reachable from this machine only. */
export function isLoopback(address: string): boolean {
  const a = address.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (a === "localhost" || a === "::1") return true;
  return isIP(a) === 4 && a.startsWith("127.");
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/** The cookie's value for a token: a hash, so the cookie jar never holds the token itself. */
export function cookieValue(token: string): string {
  return createHash("sha256").update(`nsp-fleet ui cookie\0${token}`).digest("hex");
}

/** Compares in constant time (of the hashes), so the answer's timing tells nothing of the token. */
export function same(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

export function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export type Verdict =
  | { ok: true }
  | { ok: false; status: 401 | 421; why: string }
  | { ok: "set-cookie"; cookie: string; location: string };

/** What to do with a request, given the token (if any) the server was started with. */
export function check(
  req: { url: string; headers: Record<string, string | string[] | undefined> },
  token: string | undefined,
  loopbackOnly: boolean,
): Verdict {
  if (token === undefined) {
    // No token: only on loopback, and only under a loopback name (DNS rebinding).
    const host = String(req.headers.host ?? "").replace(/:\d+$/, "");
    if (loopbackOnly && !isLoopback(host))
      return {
        ok: false,
        status: 421,
        why: `the page answers on this machine's loopback names only (127.0.0.1, localhost), not ${host || "no host"}`,
      };
    return { ok: true };
  }
  const url = new URL(req.url, "http://page.invalid");
  const given = url.searchParams.get("token");
  if (given !== null) {
    if (!same(given, token)) return { ok: false, status: 401, why: "the token in the address is not the page's" };
    url.searchParams.delete("token");
    return {
      ok: "set-cookie",
      cookie: `${COOKIE}=${cookieValue(token)}; Path=/; HttpOnly; SameSite=Strict`,
      location: `${url.pathname}${url.search}`,
    };
  }
  const auth = String(req.headers.authorization ?? "");
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1];
  if (bearer !== undefined)
    return same(bearer, token) ? { ok: true } : { ok: false, status: 401, why: "the bearer token is not the page's" };
  const cookie = cookieOf(typeof req.headers.cookie === "string" ? req.headers.cookie : undefined, COOKIE);
  if (cookie !== undefined && same(cookie, cookieValue(token))) return { ok: true };
  return {
    ok: false,
    status: 401,
    why: `this page needs its token (${TOKEN_ENV}): open it once as /?token=<token>, or send Authorization: Bearer <token>`,
  };
}
