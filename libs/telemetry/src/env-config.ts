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
 * Validates an app's environment once, at start, against its schema, and lists every problem at once
 * with the variable's name, so a misconfigured deployment fails in one readable message. An empty
 * variable counts as unset (a compose file's `START_BLOCK=` means "not given"): its default applies, or
 * it is reported missing, never read as 0.
 */
export function loadConfig<S extends z.ZodType>(
  app: string,
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<S> {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([, value]) => value !== '')));
  if (parsed.success) return parsed.data;
  throw new ConfigError(
    app,
    parsed.error.issues.map((i) => `${i.path.join('.') || '(environment)'}: ${i.message}`),
  );
}
