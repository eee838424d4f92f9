// Partner mode: the partner's API token is used only to mint short-lived credentials acting for
// one managed customer (POST /partner/subjects/{ref}/token); every other request carries one of
// those. They live in this object only, never in state, and are blanked by every scrub.
import { z } from "zod";
import type { ApiClient, BearerSource } from "./client";
import { ApiError, ForbiddenError, NotFoundError, UnauthorizedError } from "./errors";
import { registerSecret } from "./redact";
import type { HttpMethod } from "./retry";

type CredentialScope = "read" | "write";

/** Renew when this much of a credential's life is left, or a tenth of its life if that is less. */
const RENEW_MARGIN_MS = 60_000;

// The API documents show neither the response's fields nor the lifetime; both forms of an expiry
// are accepted, and without one the credential is kept until it is refused.
const mintedWire = z.looseObject({
  token: z.string().regex(/^svc_/, "must be a token starting with svc_"),
  expires_in: z.number().positive().optional(),
  expires_at: z.string().optional(),
});

interface Held {
  token: string;
  renewAt: number;
  /** When it stops being valid, by this object's clock (from when it was asked for). */
  expiresAt: number;
}

/** How many of the latest credentials are remembered after they are replaced, for a late refusal of one. */
const REMEMBERED = 8;

export class PartnerCredentials implements BearerSource {
  readonly #held = new Map<CredentialScope, Held>();
  /** One mint at a time per scope: concurrent operations share it. */
  readonly #minting = new Map<CredentialScope, Promise<Held>>();
  /** The latest credentials minted, oldest first: a request may be refused after its credential was replaced. */
  readonly #recent: Held[] = [];
  #minted = 0;

  constructor(
    /** A client that authenticates with the partner's own token. */
    private readonly partner: ApiClient,
    readonly subject: string,
    private readonly now: () => number = Date.now,
    /** Said after a refusal of the partner's token: where else it is (" (the token is the value of NSP_PARTNER_TOKEN in the environment)"). */
    private readonly tokenNote = "",
  ) {}

  /** Reads (GET) carry a read credential, so a preview never holds a write credential. */
  bearer(method: HttpMethod): Promise<string> {
    return this.credential(method === "GET" ? "read" : "write").then((c) => c.token);
  }

  refused(bearer: string): boolean {
    for (const [scope, held] of this.#held) if (held.token === bearer) this.#held.delete(scope);
    const refused = this.#recent.find((h) => h.token === bearer);
    return refused !== undefined && this.now() >= refused.expiresAt;
  }

  /** How many credentials this object minted (both scopes, renewals included). */
  get minted(): number {
    return this.#minted;
  }

  async credential(scope: CredentialScope): Promise<Held> {
    const held = this.#held.get(scope);
    if (held && this.now() < held.renewAt) return held;
    let pending = this.#minting.get(scope);
    if (!pending) {
      pending = this.#mint(scope).finally(() => this.#minting.delete(scope));
      this.#minting.set(scope, pending);
    }
    return pending;
  }

  async #mint(scope: CredentialScope): Promise<Held> {
    const asked = this.now();
    let answer: z.output<typeof mintedWire>;
    try {
      answer = await this.partner.post(
        `/partner/subjects/${encodeURIComponent(this.subject)}/token`,
        { scope },
        { schema: mintedWire },
      );
    } catch (e) {
      throw this.#explain(e, scope);
    }
    registerSecret(answer.token);
    this.#minted++;
    // Measured from when it was asked for, so a slow answer only makes the renewal earlier.
    const expiresAt =
      answer.expires_in !== undefined
        ? asked + answer.expires_in * 1000
        : answer.expires_at !== undefined
          ? Date.parse(answer.expires_at)
          : Number.NaN;
    const life = expiresAt - asked;
    const renewAt = Number.isFinite(life) ? expiresAt - Math.min(RENEW_MARGIN_MS, life / 10) : Number.POSITIVE_INFINITY;
    const held = {
      token: answer.token,
      renewAt,
      expiresAt: Number.isFinite(life) ? expiresAt : Number.POSITIVE_INFINITY,
    };
    this.#held.set(scope, held);
    this.#recent.push(held);
    if (this.#recent.length > REMEMBERED) this.#recent.shift();
    return held;
  }

  #explain(e: unknown, scope: CredentialScope): Error {
    const who = `partnerSubject ${JSON.stringify(this.subject)}`;
    const why = e instanceof ApiError ? e.serverMessage || e.message : e instanceof Error ? e.message : String(e);
    if (e instanceof NotFoundError)
      return new Error(
        `${who}: the partner (apiToken) has no managed customer with this reference; create it with nsp:partner:Subject or check the reference (${why})`,
      );
    if (e instanceof UnauthorizedError)
      return new Error(
        `${who}: the partner's apiToken was refused while minting a credential for the customer (${why})${this.tokenNote}`,
      );
    if (e instanceof ForbiddenError)
      return new Error(
        `${who}: the partner's apiToken may not mint a ${scope} credential for the customer; minting needs a write-scope token (${why})`,
      );
    return new Error(
      `${who}: minting a ${scope} credential for the customer failed: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}
