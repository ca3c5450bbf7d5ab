/** The body fields an `{error: string}` group may put next to `error` (the partner API adds `eligible`). */
export type PlainErrorFields = Readonly<Record<string, string | boolean>>;

/**
 * An error of the groups whose body is `{error: string}` (daily pool, partner free tickets): the text is
 * the exact string the spec gives clients, so it is rendered as is. Errors raised by shared machinery
 * (an ApiError from a data source, a framework 404) never reach clients with their wording: the group's
 * filter maps them to a fixed text per code.
 */
export class PlainApiError extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
    readonly fields: PlainErrorFields = {},
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(text);
    this.name = 'PlainApiError';
  }

  body(): Record<string, string | boolean> {
    return { ...this.fields, error: this.text };
  }
}
