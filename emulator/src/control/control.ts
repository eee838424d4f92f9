// The test-control API under /_emulator/: unauthenticated, not rate-limited, not counted.
// Everything here is also reachable in-process through the app object.
import { z } from "zod";
import { ALTERNATIVES } from "./alternatives";
import type { EmulatorApp } from "../pipeline/emulator-app";
import { ApiError, notFound } from "../pipeline/errors";
import { faultConfigSchema } from "./faults";
import { ALL_METHODS, type Outcome, errorOutcome, parseJsonBody, send } from "../pipeline/http";
import { confirmDestination, reportSelfCheck } from "../mail/state";
import { parseOrThrow } from "../pipeline/validation";
import { endService } from "../services/state";
import { setCallsUp } from "../vgate/state";
import { expireCredentials, mintedCredentials, partnerTokenTtl, setPartnerTokenTtl } from "../partner/state";
import { isoTime } from "../util/time";

const publicDnsBody = z.strictObject({
  name: z.string().min(1),
  ns: z.array(z.string().min(1)).optional(),
  cname: z.string().min(1).nullable().optional(),
});

const accountBody = z.strictObject({
  name: z.string().min(1),
  token: z.string().optional(),
  scope: z.enum(["read", "write", "link"]).optional(),
});

type ControlHandler = (app: EmulatorApp, body: () => unknown, url: URL) => Outcome;

const ok = (body?: unknown, status = body === undefined ? 204 : 200): Outcome => ({ status, headers: {}, body });

const CONTROL: Record<string, Partial<Record<string, ControlHandler>>> = {
  "/_emulator/stats": {
    GET: (app) => ok(app.stats()),
  },
  "/_emulator/stats/reset": {
    POST: (app) => {
      app.resetStats();
      return ok();
    },
  },
  "/_emulator/faults": {
    GET: (app) => ok(app.faults.describe()),
    PUT: (app, body) => {
      app.faults.set(parseOrThrow(faultConfigSchema, body(), "body"));
      return ok(app.faults.describe());
    },
    DELETE: (app) => {
      app.faults.clear();
      return ok();
    },
  },
  "/_emulator/faults/release": {
    POST: (app) => ok({ released: app.releaseHeld() }),
  },
  "/_emulator/public-dns": {
    GET: (app) => ok({ data: app.publicDns.list() }),
    PUT: (app, body) => ok(app.publicDns.set(parseOrThrow(publicDnsBody, body(), "body"))),
    DELETE: (app, _body, url) => {
      const name = url.searchParams.get("name");
      if (name === null) app.publicDns.clear();
      else if (!app.publicDns.delete(name)) throw notFound("public DNS entry");
      return ok();
    },
  },
  "/_emulator/accounts": {
    POST: (app, body) => {
      const spec = parseOrThrow(accountBody, body(), "body");
      const cred = app.addAccount({
        name: spec.name,
        ...(spec.token !== undefined ? { token: spec.token } : {}),
        ...(spec.scope !== undefined ? { scope: spec.scope } : {}),
      });
      return ok(cred, 201);
    },
  },
  // A token revoked in the console: every request with it is refused from then on.
  "/_emulator/tokens/revoke": {
    POST: (app, body) => {
      const spec = parseOrThrow(z.strictObject({ token: z.string().min(1) }), body(), "body");
      if (!app.revokeToken(spec.token)) throw notFound("token");
      return ok();
    },
  },
  "/_emulator/dns/recheck": {
    POST: (app) => ok({ checked: app.recheckDelegations() }),
  },
  // States only the world outside the API changes: a call in progress, a confirmation link
  // clicked, a mail server's agent reporting in.
  "/_emulator/vgate/calls": {
    PUT: (app, body) => {
      const spec = parseOrThrow(z.strictObject({ pbx: z.string().min(1), calls: z.int().min(0) }), body(), "body");
      setCallsUp(app.store, spec.pbx, spec.calls);
      return ok();
    },
  },
  "/_emulator/mail/destinations/confirm": {
    POST: (app, body) => {
      const spec = parseOrThrow(
        z.strictObject({ account: z.string().min(1), addr: z.string().min(1) }),
        body(),
        "body",
      );
      return ok(confirmDestination(app.store, spec.account, spec.addr));
    },
  },
  "/_emulator/mail/servers/self-check": {
    POST: (app, body) => {
      const spec = parseOrThrow(
        z.strictObject({ server: z.string().min(1), port25: z.boolean(), ptr: z.string().nullable() }),
        body(),
        "body",
      );
      return ok(reportSelfCheck(app.store, spec.server, { port25: spec.port25, ptr: spec.ptr }));
    },
  },
  // A subscription ended outside the API, which has no DELETE for services.
  "/_emulator/services": {
    DELETE: (app, _body, url) => {
      endService(app.store, Number(url.searchParams.get("id")));
      return ok();
    },
  },
  "/_emulator/alternatives": {
    GET: (app) => ok({ alternatives: app.alternatives.list() }),
    PUT: (app, body) => {
      app.alternatives.set(
        parseOrThrow(z.strictObject({ alternatives: z.array(z.enum(ALTERNATIVES)) }), body(), "body").alternatives,
      );
      return ok({ alternatives: app.alternatives.list() });
    },
  },
  // The credentials partners minted for their customers, expired and revoked ones included, so
  // tests can count renewals and look for a credential where it must never appear.
  "/_emulator/partner/credentials": {
    GET: (app, _body, url) => {
      const partner = url.searchParams.get("partner");
      const subject = url.searchParams.get("subject");
      const now = app.store.now();
      const data = mintedCredentials(app.store)
        .filter((m) => (partner === null || m.partner === partner) && (subject === null || m.subject === subject))
        .map((m) => ({
          token: m.token,
          partner: m.partner,
          subject: m.subject,
          account: m.account,
          scope: m.scope,
          created_at: isoTime(m.created_at),
          expires_at: isoTime(m.expires_at),
          expired: m.expires_at <= now,
          revoked: m.revoked,
        }));
      return ok({ data, ttl_seconds: partnerTokenTtl(app.store) });
    },
  },
  "/_emulator/partner/credentials/expire": {
    POST: (app, body) => {
      const spec = parseOrThrow(
        z.strictObject({ partner: z.string().min(1).optional(), subject: z.string().min(1).optional() }),
        body(),
        "body",
      );
      return ok({ expired: expireCredentials(app.store, spec) });
    },
  },
  "/_emulator/partner/token-ttl": {
    PUT: (app, body) => {
      const spec = parseOrThrow(z.strictObject({ seconds: z.int().min(1).max(86_400) }), body(), "body");
      setPartnerTokenTtl(app.store, spec.seconds);
      return ok({ ttl_seconds: spec.seconds });
    },
  },
  "/_emulator/rate-limit/reset": {
    POST: (app) => {
      app.rateLimiter.reset();
      return ok();
    },
  },
};

/** Declares the control API on the app's fastify: every path answers 405 to the methods it lacks. */
export function registerControl(app: EmulatorApp, maxBody: number): void {
  for (const [path, methods] of Object.entries(CONTROL)) {
    const allow = Object.keys(methods).sort().join(", ");
    for (const method of ALL_METHODS) {
      const h = methods[method];
      app.fastify.route({
        method,
        url: path,
        bodyLimit: maxBody,
        handler: async (request, reply) => {
          if (!h) throw new ApiError("method_not_allowed", `use ${allow}`, { headers: { Allow: allow } });
          const url = new URL(`http://emulator.invalid${request.url}`);
          let outcome: Outcome;
          try {
            outcome = h(app, () => parseJsonBody(request.body as Buffer | undefined), url);
          } catch (e) {
            if (e instanceof ApiError) throw e;
            outcome = errorOutcome(new ApiError("upstream_error", String(e), { status: 500 }));
          }
          return send(reply, outcome);
        },
      });
    }
  }
}
