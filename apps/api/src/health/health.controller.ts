import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { configuredUrls, withUrlsHidden } from '@lottery/telemetry';
import { READINESS_CHECKS, type ReadinessCheck } from './readiness-check';

/** A check that hangs is as good as failed: probes must answer quickly. */
const CHECK_TIMEOUT_MS = 2000;

interface ReadinessReport {
  status: 'ready' | 'not_ready';
  checks: Record<string, 'ok' | string>;
}

/** Kubernetes-style probes: live = the process serves HTTP; ready = its dependencies answer. */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  /** The probe is served on the public port: a failing check's words must not name a provider's key. */
  private readonly hiddenUrls = configuredUrls();

  constructor(@Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[]) {}

  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadinessReport> {
    const results = await Promise.all(
      this.checks.map(async (c) => [c.name, withUrlsHidden(await outcome(c), this.hiddenUrls)] as const),
    );
    const report: ReadinessReport = {
      status: results.every(([, result]) => result === 'ok') ? 'ready' : 'not_ready',
      checks: Object.fromEntries(results),
    };
    reply.header('Cache-Control', 'no-store');
    if (report.status !== 'ready') reply.status(503);
    return report;
  }
}

async function outcome(check: ReadinessCheck): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check.check(), timeout]);
    return 'ok';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}
