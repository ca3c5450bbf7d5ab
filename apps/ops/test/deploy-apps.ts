/**
 * What the deployment checks compare the manifests and the README against: for each entry point a
 * container can run, the environment variables it reads and the HTTP routes it serves. Taken from the
 * apps themselves (their config schemas, the Nest health controller, the telemetry metrics server), so
 * a new variable or route is known here the moment it exists.
 */
import 'reflect-metadata';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { startMetricsServer } from '@lottery/telemetry';
import type { z } from 'zod';
// The manifests configure these apps, so their schemas are the reference: importing them is the point.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { API_ENV_KEYS, API_ENV_SCHEMA } from '../../api/src/config/api-config';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { HealthController } from '../../api/src/health/health.controller';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { INDEXER_ENV_KEYS, INDEXER_ENV_SCHEMA } from '../../indexer/src/config';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { PROJECTOR_ENV_KEYS, PROJECTOR_ENV_SCHEMA } from '../../projector/src/config';

export const REPO_ROOT = join(__dirname, '..', '..', '..');

export type AppName = 'indexer' | 'projector' | 'api' | 'migrate' | 'ops';

export interface DeployableApp {
  name: AppName;
  /** The script a container runs (the image's entry point is `node -r ./tools/register.js`). */
  entry: string;
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

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourcesUnder(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** /metrics, /health/live, /health/ready: asked of a real metrics server, a route is what does not 404. */
async function metricsServerRoutes(): Promise<ReadonlySet<string>> {
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

/** The API's probe routes, read from the Nest metadata of its health controller. */
async function apiHealthRoutes(): Promise<ReadonlySet<string>> {
  const trim = (path: string) => path.replace(/^\/|\/$/g, '');
  const base = trim(String(Reflect.getMetadata(PATH_METADATA, HealthController)));
  const prototype = HealthController.prototype as unknown as Record<string, unknown>;
  const routes = new Set<string>();
  for (const method of Object.getOwnPropertyNames(prototype)) {
    const handler = method === 'constructor' ? undefined : prototype[method];
    // Route handlers carry an HTTP method and a path; other methods carry neither.
    if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
    const path = trim(String(Reflect.getMetadata(PATH_METADATA, handler)));
    routes.add(`/${[base, path].filter(Boolean).join('/')}`);
  }
  return routes;
}

const MIGRATE_ENTRY = 'libs/persistence/src/read-models/bin/migrate-read-models.ts';

export const DEPLOYABLE_APPS: readonly DeployableApp[] = [
  {
    name: 'indexer',
    entry: 'apps/indexer/src/main.ts',
    envKeys: new Set(INDEXER_ENV_KEYS),
    schema: INDEXER_ENV_SCHEMA,
    http: { portVariable: 'METRICS_PORT', routes: metricsServerRoutes },
  },
  {
    name: 'projector',
    entry: 'apps/projector/src/main.ts',
    envKeys: new Set(PROJECTOR_ENV_KEYS),
    schema: PROJECTOR_ENV_SCHEMA,
    http: { portVariable: 'METRICS_PORT', routes: metricsServerRoutes },
  },
  {
    name: 'api',
    entry: 'apps/api/src/main.ts',
    envKeys: new Set(API_ENV_KEYS),
    schema: API_ENV_SCHEMA,
    http: { portVariable: 'PORT', routes: apiHealthRoutes },
  },
  {
    // The read-model migrations (the compose `migrate` service, the Kubernetes Job): no schema, so the
    // variables are the ones its source reads.
    name: 'migrate',
    entry: MIGRATE_ENTRY,
    envKeys: envReadsIn([join(REPO_ROOT, MIGRATE_ENTRY)]),
  },
  {
    // `ops start --chain-only` (the compose `chain` service): the variables the CLI's sources read.
    name: 'ops',
    entry: 'apps/ops/src/main.ts',
    envKeys: envReadsIn(sourcesUnder(join(REPO_ROOT, 'apps/ops/src'))),
  },
];

export function appByEntry(entry: string | undefined): DeployableApp | undefined {
  return DEPLOYABLE_APPS.find((app) => app.entry === entry);
}

export function appByName(name: AppName): DeployableApp {
  const app = DEPLOYABLE_APPS.find((a) => a.name === name);
  if (!app) throw new Error(`no app ${name}`);
  return app;
}

/** The port an app listens on given its environment: the variable's value, else the schema's default. */
export function listenPort(app: DeployableApp, env: Record<string, string | undefined>): number {
  if (!app.http || !app.schema) throw new Error(`${app.name} serves no HTTP`);
  const field = app.schema.shape[app.http.portVariable] as z.ZodType;
  return Number(field.parse(env[app.http.portVariable]));
}

/** A field's default as the README shows it; undefined when it has none or it is not a plain value. */
export function schemaDefault(app: DeployableApp, key: string): string | undefined {
  const field = app.schema?.shape[key] as z.ZodType | undefined;
  const parsed = field?.safeParse(undefined);
  if (!parsed?.success) return undefined;
  const value: unknown = parsed.data;
  return ['string', 'number', 'boolean'].includes(typeof value) ? String(value) : undefined;
}
