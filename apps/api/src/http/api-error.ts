/**
 * The Data API's error codes and their HTTP statuses: the spec's table plus our choices for the three
 * codes it leaves open (unauthorized 401, validation_failed 422, internal_error 500; see README).
 */
const ERROR_STATUS = {
  invalid_request: 400,
  invalid_address: 400,
  invalid_cursor: 400,
  unauthorized: 401,
  invalid_api_key: 401,
  revoked_api_key: 403,
  key_environment_mismatch: 403,
  not_found: 404,
  method_not_allowed: 405,
  validation_failed: 422,
  rate_limited: 429,
  internal_error: 500,
  upstream_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/**
 * An error as a value: what went wrong, for the client. Thrown by guards, pipes and services; each API
 * group's exception filter renders it in that group's format, so nothing else formats errors.
 */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Response headers that belong to the error, e.g. `Allow` on 405 or `Retry-After` on 429. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
  }
}
