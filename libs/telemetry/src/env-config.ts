import type { z } from 'zod';

export class ConfigError extends Error {
  constructor(
    readonly app: string,
    readonly problems: string[],
  ) {
    super(`${app}: invalid configuration\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * The variables that are set: an empty one counts as unset (a compose file's `START_BLOCK=` means "not
 * given"), so its default applies or it is reported missing, never read as 0 or as an empty name.
 */
export function setVariables(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''),
  );
}

/**
 * Validates an app's environment once, at start, against its schema, and lists every problem at once
 * with the variable's name, so a misconfigured deployment fails in one readable message. Only the set
 * variables are read (setVariables).
 */
export function loadConfig<S extends z.ZodType>(
  app: string,
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<S> {
  const parsed = schema.safeParse(setVariables(env));
  if (parsed.success) return parsed.data;
  throw new ConfigError(
    app,
    parsed.error.issues.map((i) => `${i.path.join('.') || '(environment)'}: ${i.message}`),
  );
}
