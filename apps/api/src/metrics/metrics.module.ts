import { Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';

/** HttpMetrics itself is created by the app factory, which installs its Fastify hook before routes exist. */
@Module({ controllers: [MetricsController] })
export class MetricsModule {}
