/** `path` is `prefix` or below it (`/v1` holds `/v1/rounds`, not `/v10`): how a path finds its API group. */
export const isUnderPrefix = (path: string, prefix: string): boolean =>
  path === prefix || path.startsWith(`${prefix}/`);
