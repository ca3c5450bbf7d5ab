import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { DataApiModule } from '../data-api/data-api.module';
import { RESPONSE_HEADERS } from '../data-api/openapi-headers';
import { SUNSET_EXTENSION } from '../http/deprecation/deprecated.decorator';

export const DATA_API_VERSION = '1.6.0';
export const OPENAPI_JSON_PATH = 'v1/openapi.json';
export const DOCS_PATH = 'v1/docs';

/** The Data API's OpenAPI 3 document, generated from the controllers and DTOs. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.0.3')
    .setTitle('Lottery Data API')
    .setDescription(
      'Read-only REST API over the lottery: rounds, tickets, wins and wallet statistics. ' +
        'A bearer API key is optional; without one, requests are served at the anonymous rate tier.',
    )
    .setVersion(DATA_API_VERSION)
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: '<KEY_PREFIX>_live_<22 base62 characters>' },
      'bearer',
    )
    .build();
  const document = SwaggerModule.createDocument(app, config, { include: [DataApiModule] });
  // Optional authentication: the empty requirement means "no key" is acceptable too.
  document.security = [{}, { bearer: [] }];
  document.components = { ...document.components, headers: RESPONSE_HEADERS };
  closeObjectSchemas(document);
  markDeprecatedOperations(document);
  return document;
}

/** "Exactly the listed fields and no others" (spec): every object schema forbids extra properties. */
export function closeObjectSchemas(document: OpenAPIObject): void {
  for (const schema of Object.values(document.components?.schemas ?? {})) {
    if ('properties' in schema) schema.additionalProperties = false;
  }
}

function markDeprecatedOperations(document: OpenAPIObject): void {
  for (const path of Object.values(document.paths)) {
    for (const operation of [path.get, path.put, path.post, path.delete, path.patch, path.head, path.options]) {
      if (operation && SUNSET_EXTENSION in operation) operation.deprecated = true;
    }
  }
}

/** `/v1/openapi.json` and the interactive reference at `/v1/docs`. */
export function serveOpenApi(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup(DOCS_PATH, app, document, {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: 'Lottery Data API reference',
  });
}
