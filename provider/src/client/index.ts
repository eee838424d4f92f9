export {
  ApiClient,
  encodeQuery,
  type ApiClientOptions,
  type BearerSource,
  type ClientStats,
  type FetchInit,
  type FetchLike,
  type FetchResponse,
  type ListOptions,
  type LogLevel,
  type Query,
  type QueryScalar,
  type RequestOptions,
  type ResponseSchema,
} from "./client";
export {
  ApiError,
  ApiResponseError,
  ConflictError,
  ForbiddenError,
  LimitExceededError,
  MethodNotAllowedError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  UpstreamError,
  ValidationError,
  errorFromResponse,
  isApiError,
  isNotFound,
  networkErrorFrom,
  type ApiErrorInit,
  type ErrorResponse,
  type KnownErrorCode,
} from "./errors";
export { DEFAULT_PAGE_SIZE, readPage, type PageRead } from "./paging";
export { RateLimiter, type AcquireResult, type QuotaObservation, type QuotaPacing, type RateLimiterOptions, type WaitReason } from "./rate-limiter";
export { REDACTED, registerSecret, scrub, redactHeaders } from "./redact";
export { PartnerCredentials } from "./partner-credentials";
export {
  BACKOFF_BASE_MS,
  BACKOFF_CAP_MS,
  MAX_SERVER_WAIT_MS,
  backoffDelay,
  defaultSleep,
  parseRateLimitReset,
  parseRetryAfter,
  readRateLimitHeaders,
  type HeadersLike,
  type HttpMethod,
  type RateLimitInfo,
} from "./retry";
