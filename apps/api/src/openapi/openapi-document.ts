import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { DataApiModule } from '../data-api/data-api.module';
import { RESPONSE_HEADERS } from '../data-api/openapi-headers';
import { SUNSET_EXTENSION } from '../http/deprecation/deprecated.decorator';

const DATA_API_VERSION = '1.6.0';
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
  exactSchemas(document);
  markDeprecatedOperations(document);
  return document;
}

/**
 * Makes the generated schemas say exactly what the handlers return:
 * - "exactly the listed fields and no others" (spec): every object schema forbids extra properties;
 * - a nullable object property is written out in place. @nestjs/swagger emits `nullable` beside an
 *   `allOf` of the object's `$ref`, and in OpenAPI 3.0.3 `nullable` does not reach into `allOf`: the
 *   referenced schema still refuses null, so a validator or generated client would reject `null`.
 */
export function exactSchemas(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  for (const schema of Object.values(schemas)) {
    if ('properties' in schema) schema.additionalProperties = false;
  }
  for (const schema of Object.values(schemas)) {
    const properties = '$ref' in schema ? undefined : schema.properties;
    for (const [name, property] of Object.entries(properties ?? {})) {
      if ('$ref' in property || !property.nullable) continue;
      const target = referencedSchema(schemas, property.allOf);
      if (target && properties) {
        properties[name] = { ...structuredClone(target), nullable: true, description: property.description };
      }
    }
  }
}

/** The one component schema an `allOf` consists of, if that is all it is. */
function referencedSchema(
  schemas: NonNullable<OpenAPIObject['components']>['schemas'] & object,
  allOf: unknown[] | undefined,
): SchemaObject | null {
  const only = allOf?.length === 1 ? (allOf[0] as { $ref?: unknown }) : null;
  if (typeof only?.$ref !== 'string') return null;
  const target = schemas[only.$ref.replace('#/components/schemas/', '')];
  return target && !('$ref' in target) ? target : null;
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
