import { type CanActivate, Controller, ForbiddenException, Get, Module, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Deprecated } from './deprecated.decorator';
import { deprecationHeaders, installDeprecationHeaders } from './deprecation-metadata';

/** Stands in for the Data API's key and rate-limit guards refusing a request. */
class RefuseAll implements CanActivate {
  canActivate(): boolean {
    throw new ForbiddenException();
  }
}

@Controller('legacy')
class LegacyController {
  @Get('old')
  @Deprecated({ since: '2026-01-01', sunset: '2026-06-30', link: 'https://docs.example.org/migrate' })
  old() {
    return { ok: true };
  }

  @Get('refused')
  @Deprecated({ since: '2026-01-01', sunset: '2026-06-30' })
  @UseGuards(RefuseAll)
  refused() {
    return { ok: true };
  }

  @Get('current')
  current() {
    return { ok: true };
  }
}

@Controller('retired')
@Deprecated({ since: '2026-02-01', sunset: '2026-08-01' })
class RetiredController {
  @Get('one')
  one() {
    return { ok: true };
  }

  @Get('two')
  two() {
    return { ok: true };
  }
}

@Module({ controllers: [LegacyController, RetiredController] })
class LegacyModule {}

describe('@Deprecated', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    const adapter = new FastifyAdapter();
    installDeprecationHeaders(adapter.getInstance());
    app = await NestFactory.create<NestFastifyApplication>(LegacyModule, adapter, { logger: false });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });
  afterAll(() => app.close());

  it('adds Deprecation, Sunset and Link headers to the deprecated endpoint only', async () => {
    const fastify = app.getHttpAdapter().getInstance();
    const old = await fastify.inject({ url: '/legacy/old' });
    expect(old.headers['deprecation']).toBe(`@${Date.UTC(2026, 0, 1) / 1000}`);
    expect(old.headers['sunset']).toBe('Tue, 30 Jun 2026 00:00:00 GMT');
    expect(old.headers['link']).toBe('<https://docs.example.org/migrate>; rel="deprecation"');
    const current = await fastify.inject({ url: '/legacy/current' });
    expect(current.headers['sunset']).toBeUndefined();
    expect(current.headers['deprecation']).toBeUndefined();
  });

  it('adds them to a refusal too: guards run after they are set', async () => {
    const refused = await app.getHttpAdapter().getInstance().inject({ url: '/legacy/refused' });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['sunset']).toBe('Tue, 30 Jun 2026 00:00:00 GMT');
    expect(refused.headers['deprecation']).toBe(`@${Date.UTC(2026, 0, 1) / 1000}`);
  });

  it('deprecates every endpoint of a deprecated controller', async () => {
    for (const url of ['/retired/one', '/retired/two']) {
      const response = await app.getHttpAdapter().getInstance().inject({ url });
      expect(response.headers['sunset']).toBe('Sat, 01 Aug 2026 00:00:00 GMT');
    }
  });

  it('records the sunset in the OpenAPI operation', () => {
    const document = SwaggerModule.createDocument(app, new DocumentBuilder().build());
    expect(document.paths['/legacy/old'].get).toMatchObject({ 'x-sunset': '2026-06-30T00:00:00.000Z' });
  });

  it('refuses a sunset announced less than 90 days ahead, or dates that are not dates', () => {
    expect(() => Deprecated({ since: '2026-01-01', sunset: '2026-03-01' })).toThrow('90 days');
    expect(() => Deprecated({ since: 'soon', sunset: '2026-03-01' })).toThrow(RangeError);
  });

  it('formats headers without a link when none is given', () => {
    expect(deprecationHeaders({ sinceMs: 0, sunsetMs: 86_400_000 * 90, link: null })).toEqual({
      Deprecation: '@0',
      Sunset: 'Wed, 01 Apr 1970 00:00:00 GMT',
    });
  });
});
