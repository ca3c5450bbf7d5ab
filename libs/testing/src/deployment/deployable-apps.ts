/**
 * What the deployment checks compare docker/compose.yml, k8s/ and the README against. The entry points
 * are known here; what each app reads and serves is not: an app's own test describes it from the app's
 * config module (apps never import apps, and libraries never import apps), see describeAppDeployment.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startMetricsServer } from '@lottery/telemetry';
import type { z } from 'zod';

/** The script each app's containers run (the image's entry point is `node -r ./tools/register.js`). */
export const DEPLOYABLE_ENTRIES = {
  indexer: 'apps/indexer/src/main.ts',
  projector: 'apps/projector/src/main.ts',
  api: 'apps/api/src/main.ts',
  // The read-model migrations: the compose `migrate` service, the Kubernetes Job.
  migrate: 'libs/persistence/src/read-models/bin/migrate-read-models.ts',
  // `ops start --chain-only`: the compose `chain` service.
  ops: 'apps/ops/src/main.ts',
} as const;

export type AppName = keyof typeof DEPLOYABLE_ENTRIES;

export const APP_NAMES = Object.keys(DEPLOYABLE_ENTRIES) as AppName[];

export function appOfEntry(entry: string | undefined): AppName | undefined {
  return APP_NAMES.find((name) => DEPLOYABLE_ENTRIES[name] === entry);
}

/** An app as its own test describes it, taken from the app's code so a new variable or route counts at once. */
export interface DeployableApp {
  name: AppName;
  /** Every environment variable the process reads. */
  envKeys: ReadonlySet<string>;
  /** The validated variables, when the app has a schema. */
  schema?: z.ZodObject;
  /** The variable naming the HTTP port, and the routes served there. */
  http?: { portVariable: string; routes: () => Promise<ReadonlySet<string>> };
}

/** `process.env['X']`, `process.env.X` and `env['X']` in the given sources: for scripts without a schema. */
export function envReadsIn(paths: string[]): Set<string> {
  const pattern = /(?:process\.env\.([A-Z][A-Z0-9_]*))|(?:\benv\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\])/g;
  const keys = new Set<string>();
  for (const path of paths) {
    for (const match of readFileSync(path, 'utf8').matchAll(pattern)) keys.add(match[1] ?? match[2]);
  }
  return keys;
}

/** The TypeScript sources under a folder, tests left out. */
export function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourcesUnder(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

/**
 * The routes of the telemetry metrics server the indexer and the projector run (/metrics, /health/live,
 * /health/ready): asked of a real one, a route is what does not 404.
 */
export async function metricsServerRoutes(): Promise<ReadonlySet<string>> {
  const server = await startMetricsServer(0, () => null);
  try {
    const candidates = ['/metrics', '/health/live', '/health/ready', '/health', '/ready', '/live', '/healthz'];
    const served = await Promise.all(
      candidates.map(async (path) => {
        const response = await fetch(`http://127.0.0.1:${server.port}${path}`);
        await response.arrayBuffer();
        return response.status === 404 ? [] : [path];
      }),
    );
    return new Set(served.flat());
  } finally {
    await server.close();
  }
}

/** The port an app listens on given its environment: the variable's value, else the schema's default. */
export function listenPort(app: DeployableApp, env: Record<string, string | undefined>): number {
  if (!app.http || !app.schema) throw new Error(`${app.name} serves no HTTP`);
  const field = app.schema.shape[app.http.portVariable] as z.ZodType;
  return Number(field.parse(env[app.http.portVariable]));
}
