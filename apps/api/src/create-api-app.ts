import type { IncomingMessage } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ApiDependencies, AppModule } from './app.module';
import { CallerResolver } from './auth/caller-resolver';
import { dailyPoolExceptionFilter } from './daily-pool/daily-pool-exception.filter';
import { DataApiExceptionFilter } from './data-api/data-api-exception.filter';
import { routeEmptyParametersToCatchAll } from './http/empty-parameter-url';
import { installHttpCache } from './data-api/http-cache/install-http-cache';
import { clientErrorReply } from './http/client-error-reply';
import { installCors } from './http/cors';
import { installDeprecationHeaders } from './http/deprecation/deprecation-metadata';
import { ignoreRequestBodies } from './http/ignore-request-bodies';
import { ExceptionRoutingFilter } from './http/exception-routing.filter';
import { PlainErrorExceptionFilter } from './http/plain-error-exception.filter';
import { lingerBeforeClosing } from './http/lingering-close';
import { REQUEST_ID_HEADER, requestIdFor } from './http/request-id';
import { RouteTable } from './http/route-table';
import { serializeReply } from './http/serialized-json';
import { HttpMetrics } from './metrics/http-metrics';
import { buildOpenApiDocument, DOCS_PATH, serveOpenApi } from './openapi/openapi-document';
import {
  buildFreeTicketsOpenApiDocument,
  FREE_TICKETS_DOCS_PATH,
  serveFreeTicketsOpenApi,
} from './openapi/free-tickets-openapi-document';
import { serveOnlyReferenceFiles } from './openapi/reference-files';
import { partnerGiveawaysExceptionFilter } from './partner-giveaways/partner-giveaways-exception.filter';
import { UnchargedRateLimitHeaders } from './rate-limit/uncharged-rate-limit-headers';
import { routeEveryHttpMethod } from './http/every-http-method';
import { withUnreservedEscapesDecoded } from './http/unreserved-escapes';

/**
 * Builds the initialised (not yet listening) app. Shared by main.ts, the tests and the OpenAPI writer,
 * so all three run exactly the same wiring.
 */
export async function createApiApp(deps: ApiDependencies): Promise<NestFastifyApplication> {
  const routes = new RouteTable();
  const metrics = new HttpMetrics();
  const dataApiErrors = new DataApiExceptionFilter(routes, deps.logger);
  // Each group renders its errors in its own format; the path prefix picks the group.
  const errors = new ExceptionRoutingFilter(
    [
      dataApiErrors,
      dailyPoolExceptionFilter(routes, deps.logger),
      partnerGiveawaysExceptionFilter(routes, deps.logger),
      // the rest of /api/v1 (a mistyped group path): its consumers read `{error: string}` answers
      new PlainErrorExceptionFilter('/api/v1', routes, deps.logger),
    ],
    dataApiErrors,
  );

  const built: { callers?: CallerResolver } = {};
  const budgets = new UnchargedRateLimitHeaders(dataApiErrors.prefix, deps.rateLimitStore, () => {
    if (!built.callers) throw new Error('the app is not built yet');
    return built.callers;
  });

  const adapter = new FastifyAdapter({
    logger: false,
    trustProxy: deps.config.trustProxy,
    requestIdHeader: false,
    genReqId: (request: IncomingMessage) => requestIdFor(request.headers),
    // As long as a request line can be (Node's 16 KiB header limit): every path parameter, however long,
    // reaches its validation (400, or a lookup) instead of missing the route (404).
    routerOptions: { maxParamLength: 16 * 1024 },
    rewriteUrl(this: FastifyInstance, request: IncomingMessage) {
      return routeEmptyParametersToCatchAll(
        this,
        withUnreservedEscapesDecoded(request.url ?? '/'),
        request.method ?? 'GET',
      );
    },
    // Bad URL encodings and body-parser failures never reach Nest; they still get the group's format.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
      errors.respond(error, request, reply),
    // Requests the HTTP parser refuses (e.g. headers over 16 KiB) get the group's format too.
    clientErrorHandler: clientErrorReply,
  });
  const fastify = adapter.getInstance();
  // Answers to requests whose body is never read (a body over the limit) must reach the client, not a reset.
  lingerBeforeClosing(fastify.server);
  routeEveryHttpMethod(fastify);
  ignoreRequestBodies(fastify, deps.config.requestBodyTimeoutMs);
  // Hooks go on before Nest registers routes: onRoute must see every route.
  fastify.addHook('onRoute', (route) => routes.record(route.method, route.url));
  fastify.addHook('onSend', (request, reply, payload, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done(null, payload);
  });
  fastify.setReplySerializer(serializeReply);
  installDeprecationHeaders(fastify);
  installHttpCache(fastify);
  metrics.install(fastify);
  installCors(fastify);
  serveOnlyReferenceFiles(fastify, [DOCS_PATH, FREE_TICKETS_DOCS_PATH]);
  budgets.install(fastify);

  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(deps, { routes, metrics }), adapter, {
    logger: false,
    bodyParser: false,
  });
  built.callers = app.get(CallerResolver, { strict: false });
  app.useGlobalFilters(errors);
  serveOpenApi(app, buildOpenApiDocument(app));
  serveFreeTicketsOpenApi(app, buildFreeTicketsOpenApiDocument(app));
  await app.init();
  return app;
}
