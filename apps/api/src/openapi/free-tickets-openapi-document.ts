import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { DailyPoolModule } from '../daily-pool/daily-pool.module';
import { PartnerGiveawaysModule } from '../partner-giveaways/partner-giveaways.module';
import { exactSchemas } from './openapi-document';

const FREE_TICKETS_API_VERSION = '1.0.0';
export const FREE_TICKETS_OPENAPI_JSON_PATH = 'api/v1/openapi.json';
export const FREE_TICKETS_DOCS_PATH = 'api/v1/docs';

/**
 * The daily pool and partner free ticket APIs (`/api/v1/…`) in their own OpenAPI 3 document: they have
 * their own key (`apikey`), error format (`{error: string}`) and version, apart from the Data API's 1.6.0.
 */
export function buildFreeTicketsOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.0.3')
    .setTitle('Lottery free daily pool and partner free ticket APIs')
    .setDescription(
      'The free daily ticket pool (read-only; any valid Data API key) and the partner free ticket API ' +
        '(a partner key). The key goes in the `apikey` header (recommended) or the `apikey` query parameter. ' +
        'Errors are `{"error": "<text>"}`.',
    )
    .setVersion(FREE_TICKETS_API_VERSION)
    .addApiKey({ type: 'apiKey', in: 'header', name: 'apikey' }, 'apikeyHeader')
    .addApiKey({ type: 'apiKey', in: 'query', name: 'apikey' }, 'apikeyQuery')
    .build();
  const document = SwaggerModule.createDocument(app, config, { include: [DailyPoolModule, PartnerGiveawaysModule] });
  document.security = [{ apikeyHeader: [] }, { apikeyQuery: [] }];
  exactSchemas(document);
  return document;
}

/** `/api/v1/openapi.json` and the interactive reference at `/api/v1/docs`. */
export function serveFreeTicketsOpenApi(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup(FREE_TICKETS_DOCS_PATH, app, document, {
    jsonDocumentUrl: FREE_TICKETS_OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: 'Lottery free ticket APIs reference',
  });
}
