// The partner token, checked by the process that runs many customers' stacks rather than by each
// stack: every stack's provider would otherwise spend one of the token's requests (300 a minute,
// shared by every worker of the fleet) on checking it, on every run, a no-change one included.
import {
  checkPartnerToken,
  PartnerTokenError,
  PARTNER_TOKEN_ENV,
  VERIFIED_TOKEN_ENV,
} from "../../provider/src/config/partner-check";

/** How long a check stands: a token revoked meanwhile fails the first stack that makes a request. */
const RECHECK_MS = 10 * 60_000;

export type PartnerTokenStatus =
  /** Checked: the stacks are told so, and their providers make no request to check it again. */
  | { env: NodeJS.ProcessEnv }
  /** Refused by the API: every stack on it would fail, so none is run; the message names the variable. */
  | { refused: string };

export class PartnerToken {
  #checked?: { at: number; status: PartnerTokenStatus };
  #checking?: Promise<PartnerTokenStatus>;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly say: (message: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether a partner token is set at all: customers with tokens of their own need none. */
  get present(): boolean {
    return Boolean(this.env[PARTNER_TOKEN_ENV]);
  }

  /**
   * The token's standing, checked at most once every ten minutes. A check that could not be made
   * (the network, the service) leaves each stack to check for itself, as a stack run by hand does.
   */
  async status(): Promise<PartnerTokenStatus> {
    if (!this.present) return { env: {} };
    if (this.#checked && this.now() - this.#checked.at < RECHECK_MS) return this.#checked.status;
    // The stacks a worker starts together wait on the same check rather than each making one.
    this.#checking ??= this.#check().finally(() => (this.#checking = undefined));
    return this.#checking;
  }

  async #check(): Promise<PartnerTokenStatus> {
    let status: PartnerTokenStatus;
    try {
      await checkPartnerToken(this.env.NSP_BASE_URL, this.env[PARTNER_TOKEN_ENV], {
        insecureHttp: this.env.NSP_INSECURE_HTTP === "true",
      });
      status = { env: { [VERIFIED_TOKEN_ENV]: PARTNER_TOKEN_ENV } };
    } catch (e) {
      if (e instanceof PartnerTokenError && e.refused) status = { refused: e.message };
      else {
        this.say(
          `${PARTNER_TOKEN_ENV}: could not be checked (${(e as Error).message}); each stack checks it for itself`,
        );
        status = { env: {} };
      }
    }
    this.#checked = { at: this.now(), status };
    return status;
  }
}
