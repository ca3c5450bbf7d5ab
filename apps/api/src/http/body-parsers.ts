import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { RawServerDefault } from 'fastify';

/**
 * The app's body parsers, in place of Nest's (the app is created with `bodyParser: false`). No route
 * takes a body, yet many HTTP clients send `Content-Type: application/json` with an empty one on a POST
 * (the partner purchase has "no body"); Fastify's JSON parser refuses that before any guard runs, a 400
 * ahead of the key's 401. An empty JSON body now parses as no body, any other as before (Fastify's own
 * parser, with its prototype-poisoning checks); a form body is accepted and left unparsed.
 */
export function useBodyParsers(app: NestFastifyApplication): void {
  const parseJson = app.getHttpAdapter().getInstance().getDefaultJsonParser('error', 'error');
  app.useBodyParser<RawServerDefault>('application/json', {}, (request, body, done) => {
    if (body.length === 0) done(null, undefined);
    else parseJson(request, body.toString('utf8'), done);
  });
  app.useBodyParser('application/x-www-form-urlencoded');
}
