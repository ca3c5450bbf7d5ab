import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LotteryDeployment } from '@lottery/contracts';
import { createEventLog, type EventLog } from '@lottery/event-log';
import {
  blockByNumber,
  eventually,
  exited,
  headOf,
  readWholeLog,
  spawnApp,
  webSocketUrlOf,
} from '@lottery/pipeline-testing';
import { appEnvironments } from '../chaos/app-environments';
import { POLL_MS, storedPosition } from '../chaos/pipeline-progress';

export interface LivePipelineOptions {
  rpcUrl: string;
  deployment: LotteryDeployment;
  kafkaBrokers: string[];
  /** The read models' database (schema `lottery`). */
  databaseUrl: string;
  /** The indexer also on anvil's WebSocket (RPC_WS_URL, newHeads). */
  newHeads: boolean;
}

/**
 * The indexer and the projector as production runs them, as processes, on the production event log
 * (Kafka), with production settings except a faster head poll (the reorgs come every few blocks).
 * `caughtUp` is measured from outside: the log's checkpoint against the chain, the projector's stored
 * position against the log.
 */
export class LivePipeline {
  private constructor(
    private readonly options: LivePipelineOptions,
    private readonly apps: Record<'indexer' | 'projector', ChildProcess>,
    /** A reader of the apps' log (a reader never fences the indexer's producer). */
    private readonly log: EventLog,
  ) {}

  static async start(options: LivePipelineOptions): Promise<LivePipeline> {
    const log = createEventLog({
      kind: 'kafka',
      brokers: options.kafkaBrokers,
      chainId: options.deployment.chainId,
      clientId: 'reliability-reorgs',
    });
    // the topics exist before anyone reads them (the indexer creates them too, but later)
    await log.init();
    const env = appEnvironments({
      ...options,
      startBlock: Number(options.deployment.deployBlock),
      // nobody probes the apps' metrics here: the log and the read models say how far they are
      ports: { indexer: 0, projector: 0, api: 0 },
    });
    const apps = {
      indexer: spawnApp('apps/indexer/src/main.ts', {
        ...env.indexer,
        POLL_INTERVAL_MS: '100',
        ...(options.newHeads ? { RPC_WS_URL: webSocketUrlOf(options.rpcUrl) } : {}),
      }),
      projector: spawnApp('apps/projector/src/main.ts', env.projector),
    };
    return new LivePipeline(options, apps, log);
  }

  /** Throws if an app exited: nothing restarts it here, so the suite would wait for nothing. */
  assertRunning(): void {
    for (const [name, child] of Object.entries(this.apps)) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`the ${name} exited (${child.exitCode ?? child.signalCode}); its stderr is above`);
    }
  }

  /** Resolves once the log's checkpoint has reached `block` (whatever its hash). */
  async indexed(block: number, timeoutMs: number): Promise<void> {
    await eventually(
      async () => {
        this.assertRunning();
        return ((await this.log.lastCheckpoint())?.blockNumber ?? -1) >= block;
      },
      `the indexer to append block ${block}`,
      timeoutMs,
    );
  }

  /**
   * Resolves once the log's checkpoint is the chain's head block (number and hash: after a reorg the head
   * has the same number) and the projector has committed the log's last event. Mining must be paused.
   */
  async caughtUp(timeoutMs: number): Promise<void> {
    const head = await headOf(this.options.rpcUrl);
    const { hash } = (await blockByNumber<{ hash: string }>(this.options.rpcUrl, head)) as { hash: string };
    await eventually(
      async () => {
        this.assertRunning();
        const checkpoint = await this.log.lastCheckpoint();
        return checkpoint?.blockNumber === head && checkpoint.blockHash.toLowerCase() === hash.toLowerCase();
      },
      `the indexer to append head block ${head} (${hash})`,
      timeoutMs,
    );
    const last = await this.lastPosition();
    await eventually(
      async () => {
        this.assertRunning();
        return (await storedPosition(this.options.databaseUrl)) === last;
      },
      `the projector to commit log position ${last}`,
      timeoutMs,
      POLL_MS,
    );
  }

  /** Writes the whole log (position and event, one JSON line each) for a post-mortem; returns the file. */
  async dumpLog(dir: string): Promise<string> {
    const file = join(dir, 'event-log.jsonl');
    const lines = (await readWholeLog(this.log)).map(({ position, event }) =>
      JSON.stringify({ position, event }, (_key, value: unknown) =>
        typeof value === 'bigint' ? value.toString() : value,
      ),
    );
    writeFileSync(file, lines.join('\n'));
    return file;
  }

  /** The reorgs the indexer logged (BlocksReverted records) and how many logged events they took back. */
  async revertsLogged(): Promise<{ reverts: number; events: number }> {
    let standing: number[] = [];
    let reverts = 0;
    let events = 0;
    for (const { event } of await readWholeLog(this.log)) {
      if (event.type !== 'BlocksReverted') {
        standing.push(event.blockNumber);
        continue;
      }
      reverts += 1;
      const kept = standing.filter((block) => block < event.payload.fromBlock);
      events += standing.length - kept.length;
      standing = kept;
    }
    return { reverts, events };
  }

  async stop(): Promise<void> {
    for (const child of Object.values(this.apps)) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      child.kill('SIGTERM');
      await exited(child);
    }
    await this.log.close();
  }

  /** The position of the log's last event (Kafka positions have gaps: transaction markers). */
  private async lastPosition(): Promise<number | null> {
    const head = await this.log.head();
    const tail = await this.log.tail();
    for (let span = 64; ; span *= 8) {
      const from = Math.max(head, tail - span);
      const records = await this.log.read(from, span);
      if (records.length > 0) return (records.at(-1) as { position: number }).position;
      if (from === head) return null;
    }
  }
}
