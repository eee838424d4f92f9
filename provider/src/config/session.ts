import { createHash } from "node:crypto";
import { ApiClient, PartnerCredentials, scrub, UnauthorizedError, type QuotaPacing } from "../client";
import { missingTokenMessage, parseConfig, type ProviderConfig } from "./provider-config";
import { variablesHolding, verifiedByCaller, VERIFIED_TOKEN_ENV } from "./partner-check";
import { UserError } from "../framework/engine/user-error";
import { Adoptions } from "../framework/context/adoption";
import { InFlightDeletes } from "../framework/context/in-flight-deletes";
import { ListCache } from "../framework/context/list-cache";
import { containsUnknown, type PropertyMap } from "../framework/engine/property-values";
import type { OperationContext } from "../framework/definition";

interface ApiSession {
  client: ApiClient;
  lists: ListCache;
  adoptions: Adoptions;
  deletes: InFlightDeletes;
  /** Partner mode (`partnerSubject`): the credentials minted for the customer. */
  partner?: PartnerCredentials;
}

/** The settings of a configured provider, the API token aside (the session keeps that). */
type ProviderSettings = Omit<ProviderConfig, "apiToken">;

type SessionLog = (level: "debug" | "info" | "warning", message: string) => void;

/**
 * The API client of one account, the list cache that its writes keep fresh, and the registry of
 * objects its creates adopted, built the same way for every caller, so that all of them pace,
 * retry and batch alike. The token goes to the client that sends it and nowhere else.
 */
function openSession(
  settings: ProviderSettings,
  token: string,
  userAgent: string,
  log: SessionLog,
  tokenNote: string,
): ApiSession {
  let lists: ListCache | undefined;
  let adoptions: Adoptions | undefined;
  const common = {
    baseUrl: settings.baseUrl,
    token,
    requestsPerMinute: settings.requestsPerMinute,
    // Only to measure shared pacing against the pacing before it (bench P8); not a setting users need.
    pacing: (process.env.NSP_QUOTA_PACING === "local" ? "local" : "shared") as QuotaPacing,
    maxRetries: settings.maxRetries,
    userAgent,
    onLog: (level: "debug" | "info" | "warn", message: string) => log(level === "warn" ? "warning" : level, message),
  };
  // The partner's token and each credential minted with it have a rate-limit bucket of their
  // own, so the minting client paces itself apart from the customer's requests.
  const partner = settings.partnerSubject
    ? new PartnerCredentials(new ApiClient(common), settings.partnerSubject, Date.now, tokenNote)
    : undefined;
  const client = new ApiClient({
    ...common,
    ...(partner ? { credentials: partner } : {}),
    onWrite: (method, path) => {
      lists?.invalidate(path);
      adoptions?.sawWrite(method, path);
    },
  });
  lists = new ListCache(client, settings.batchReads);
  adoptions = new Adoptions(client);
  return { client, lists, adoptions, deletes: new InFlightDeletes(), ...(partner ? { partner } : {}) };
}

export interface ConfigureOptions {
  userAgent: string;
  log: SessionLog;
  /** How an error names where the token was set: in the configuration, or in NSP_API_TOKEN. */
  tokenSettings: { config: string; env: string };
  /** Whether the program can pass settings to an explicit provider instance (the plugin: yes; dynamic mode: no). */
  explicitProviders: boolean;
  env?: NodeJS.ProcessEnv;
}

// Per process: whatever configures a provider with a token a second time needs no second read.
const checkedTokens = new Map<string, Promise<void>>();

/**
 * One configured provider: its settings, and the one copy of its API token outside the HTTP
 * client that sends it. Whatever leaves the provider (an error, a log line) passes `scrub`.
 */
export class ProviderSession {
  readonly #token: string | undefined;
  readonly #tokenSetting: string;
  /** Where else the token is, for a message about its refusal: "" or " (the token is the value of X in the environment)". */
  readonly #tokenNote: string;
  /** The variable named in NSP_VERIFIED_TOKEN_ENV that holds this token: the caller checked it already. */
  readonly #verifiedIn: string | undefined;
  /** Why no request can be made, or undefined when one can. */
  readonly #unavailable: string | undefined;
  #api: ApiSession | undefined;

  constructor(
    readonly settings: ProviderSettings,
    token: string | undefined,
    private readonly options: ConfigureOptions & { tokenSetting: string; subjectUnknown: boolean },
  ) {
    this.#token = token;
    this.#tokenSetting = options.tokenSetting;
    const env = options.env ?? process.env;
    const variables = variablesHolding(token, env).filter((v) => !options.tokenSetting.includes(v));
    this.#tokenNote = variables.length
      ? ` (the token is the value of ${variables.join(" and ")} in the environment)`
      : "";
    this.#verifiedIn = verifiedByCaller(token, env);
    // A customer reference not known yet (made by a resource of the same `up`) must not leave
    // this provider acting as the partner itself: no requests until a configure knows it.
    this.#unavailable = options.subjectUnknown
      ? "nsp: partnerSubject is not known yet (it is computed by this update), so this provider instance " +
        "cannot reach the API yet"
      : token
        ? undefined
        : missingTokenMessage(options.explicitProviders);
  }

  /** Equal for equal settings and token, without holding the token: a configure that changes nothing keeps its session. */
  get key(): string {
    return `${JSON.stringify(this.settings)}\u0000${this.#fingerprint()}\u0000${this.#unavailable ?? ""}`;
  }

  get hasToken(): boolean {
    return this.#token !== undefined;
  }

  /** Whether requests can be made (a token, and a partner's customer that is known). */
  get ready(): boolean {
    return this.#unavailable === undefined;
  }

  /** The API session, opened on first use; a UserError saying what to set when there is none. */
  api(): ApiSession {
    if (this.#unavailable !== undefined || this.#token === undefined)
      throw new UserError(this.#unavailable ?? missingTokenMessage(this.options.explicitProviders));
    this.#api ??= openSession(this.settings, this.#token, this.options.userAgent, this.options.log, this.#tokenNote);
    return this.#api;
  }

  /** What an operation runs with: this session's API, with the caller's cancellation and log. */
  context(run: Pick<OperationContext, "signal" | "log" | "resourceName">): OperationContext {
    const { client, lists, adoptions, deletes } = this.api();
    return { client, lists, adoptions, deletes, progress: () => undefined, ...run };
  }

  /** `text` without this provider's token (raw or URL-encoded), any bearer credential or minted secret. */
  scrub(text: string): string {
    return scrub(text, this.#token ? [this.#token] : []);
  }

  /**
   * Fails when the API will refuse every request: a partner's customer reference that cannot be
   * minted for, or a token the API does not know (one cheap `GET /me` per process and token).
   * Only a refusal fails here: any other problem (the network, a 5xx) is left to the operations,
   * which report it in their own terms. Nothing to check without a token, nor for a token the
   * process that started this one checked already (NSP_VERIFIED_TOKEN_ENV names its variable):
   * a stack of a fleet then spends none of a shared partner token's quota on a check, and in
   * partner mode mints a credential only when a call needs one.
   */
  async verify(): Promise<void> {
    if (!this.ready) return;
    if (this.#verifiedIn !== undefined) {
      this.options.log(
        "debug",
        `nsp: the token in ${this.#verifiedIn} was checked by the process that started this one (${VERIFIED_TOKEN_ENV}); not checked again`,
      );
      return;
    }
    const api = this.api();
    if (api.partner) {
      // Read scope, as a preview only reads; the credential is kept (and renewed) for the operations.
      try {
        await api.partner.credential("read");
      } catch (e) {
        throw new UserError(`nsp: ${this.scrub(e instanceof Error ? e.message : String(e))}`);
      }
      return;
    }
    const key = this.#fingerprint();
    let pending = checkedTokens.get(key);
    if (!pending) {
      pending = api.client.get("/me").then(
        () => undefined,
        (e: unknown) => {
          if (e instanceof UnauthorizedError) {
            throw new UserError(
              `nsp: the API does not know the API token in ${this.#tokenSetting} (${this.scrub(e.message)}); ` +
                `nothing was changed. Set a valid token there${this.#tokenNote}.`,
            );
          }
        },
      );
      checkedTokens.set(key, pending);
    }
    return pending;
  }

  /**
   * An operation's error as the person running Pulumi should read it: the API refusing the
   * token (revoked since it was checked, or never checked: see verify) says which setting and
   * which variable hold it. A partner's minted credentials explain their own refusals.
   */
  explain(error: unknown): unknown {
    if (!(error instanceof UnauthorizedError) || this.settings.partnerSubject) return error;
    // "; " after the API's message: a "." there would make "token)." look like a credential to scrub.
    return new UserError(
      `nsp: the API refused the API token in ${this.#tokenSetting} (${this.scrub(error.message)}); set a valid token there${this.#tokenNote}.`,
    );
  }

  #fingerprint(): string {
    return this.#token === undefined
      ? ""
      : createHash("sha256").update(`${this.settings.baseUrl}\u0000${this.#token}`).digest("hex");
  }

  // Defence in depth: a session printed or serialised by mistake shows no token.
  toJSON(): { settings: ProviderSettings; hasToken: boolean } {
    return { settings: this.settings, hasToken: this.hasToken };
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `ProviderSession ${JSON.stringify(this.toJSON())}`;
  }
}

/**
 * The one configure path of the plugin and of dynamic mode: the settings as given (values not
 * known yet left out), the environment as fallback, checked with errors that name the property
 * and never echo the token. The token is kept by the returned session only.
 */
export function configureSession(raw: PropertyMap, options: ConfigureOptions): ProviderSession {
  const known: PropertyMap = {};
  for (const [k, v] of Object.entries(raw)) if (!containsUnknown(v)) known[k] = v;
  const { config, failures } = parseConfig(known, options.env);
  if (!config)
    throw new UserError(
      `nsp: invalid provider configuration: ${failures.map((f) => `${f.property} ${f.reason}`).join("; ")}`,
    );
  const { apiToken, ...settings } = config;
  const tokenInConfig = raw.apiToken !== undefined && raw.apiToken !== "";
  return new ProviderSession(settings, apiToken, {
    ...options,
    tokenSetting: tokenInConfig ? options.tokenSettings.config : options.tokenSettings.env,
    subjectUnknown: containsUnknown(raw.partnerSubject),
  });
}
