import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadApiConfig } from '../config/api-config';
import { createApiApp } from '../create-api-app';
import { createAppLogger } from '../logger';
import { MemoryRateLimitStore } from '../rate-limit/memory-rate-limit.store';
import { NoReadModels } from './no-read-models';
import { FREE_TICKETS_OPENAPI_JSON_PATH } from './free-tickets-openapi-document';
import { OPENAPI_JSON_PATH } from './openapi-document';

/** Where the reviewed copies of the documents live; tests fail when they differ from the code's. */
export const COMMITTED_OPENAPI = join(__dirname, '..', '..', 'openapi', 'v1.json');
export const COMMITTED_FREE_TICKETS_OPENAPI = join(__dirname, '..', '..', 'openapi', 'api-v1.json');

/** The Data API document exactly as the app serves it at /v1/openapi.json, pretty-printed for review. */
export function generateOpenApiJson(): Promise<string> {
  return generateServedDocument(OPENAPI_JSON_PATH);
}

/** The daily pool and partner document, as served at /api/v1/openapi.json. */
export function generateFreeTicketsOpenApiJson(): Promise<string> {
  return generateServedDocument(FREE_TICKETS_OPENAPI_JSON_PATH);
}

async function generateServedDocument(path: string): Promise<string> {
  const app = await createApiApp({
    config: loadApiConfig({ DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused' }),
    logger: createAppLogger('silent'),
    readModels: new NoReadModels(),
    apiKeys: { findByKey: async () => null },
    rateLimitStore: new MemoryRateLimitStore(),
    readinessChecks: [],
  });
  try {
    const served = await app
      .getHttpAdapter()
      .getInstance()
      .inject({ url: `/${path}` });
    return `${JSON.stringify(JSON.parse(served.body), null, 2)}\n`;
  } finally {
    await app.close();
  }
}

/** Writes a document formatted like the rest of the repository, so `prettier --check` agrees. */
async function writeCommittedDocument(file: string, json: Promise<string>): Promise<void> {
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(file, await prettier.format(await json, { ...options, parser: 'json' }));
  console.log(`wrote ${file}`);
}

if (require.main === module) {
  writeCommittedDocument(COMMITTED_OPENAPI, generateOpenApiJson())
    .then(() => writeCommittedDocument(COMMITTED_FREE_TICKETS_OPENAPI, generateFreeTicketsOpenApiJson()))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
