/**
 * Chaos (issue 9, reliability 1): the pipeline as production runs it — anvil with our lottery, the indexer
 * → a real Kafka 3.9 broker → the projector → a Postgres of the suite's own → the API, each app its own
 * process — is SIGKILLed at seeded random moments, during the backfill of a bulk history and during live
 * simulator activity (victim drawn among indexer, projector, API; restarted after a short random delay).
 * The Kafka broker and Postgres are each restarted once during realtime. Apps that die by themselves
 * meanwhile are restarted by the supervisor and counted. At the end the read models must equal, row for
 * row, a clean replay of the final canonical chain (fresh indexer from block 0, fresh projector, nothing
 * killed), and the chaos log must hold the replay's events.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SeededRandom } from '@lottery/contracts';
import { eventually, headOf } from '@lottery/pipeline-testing';
import { freePort } from '@lottery/telemetry';
import { startKafka, startRestartablePostgres, type KafkaBroker, type RestartablePostgres } from '@lottery/testing';
import type { ReliabilitySuite, SuiteContext, SuiteOutcome } from '../lib/suite';
import { appEnvironments } from '../chaos/app-environments';
import { cleanReplay, readLog } from '../chaos/clean-replay';
import { compareLogs, compareReadModels } from '../chaos/compare-runs';
import { startLiveActivity, startLotteryChain, type LotteryChain } from '../chaos/lottery-chain';
import { PipelineProgress, POLL_MS, waitStoredPosition, type Progress } from '../chaos/pipeline-progress';
import { SupervisedApp, type AppName } from '../chaos/supervised-app';

const SIZES = {
  full: { indexedEvents: 30_000, backfillKills: 8, realtimeKills: 12 },
  quick: { indexedEvents: 6_000, backfillKills: 2, realtimeKills: 4 },
};
/** A restarted app, Kafka or Postgres back: generous, the machine is shared and the JVM starts slowly. */
const RECOVERY_TIMEOUT_MS = 180_000;
const CONVERGE_TIMEOUT_MS = 600_000;
const VICTIMS: readonly AppName[] = ['indexer', 'projector', 'api'];

type Disruption = { kind: 'kill'; victim: AppName } | { kind: 'kafka' } | { kind: 'postgres' };

/** What the run did and saw, for the figures and the failures. */
class ChaosRecord {
  kills = 0;
  backfillKills = 0;
  killsSurvived = 0;
  kafkaRestarts = 0;
  postgresRestarts = 0;
  simulatorErrors = 0;
  readonly failures: string[] = [];
}

interface Stage {
  chain: LotteryChain;
  kafka: KafkaBroker;
  postgres: RestartablePostgres;
  apps: Record<AppName, SupervisedApp>;
  progress: PipelineProgress;
  random: SeededRandom;
  record: ChaosRecord;
  context: SuiteContext;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const secondsSince = (t: number) => ((performance.now() - t) / 1000).toFixed(1);

/**
 * Runs one disruption; the promise it returns settles once what it hit works again (false when something
 * never came back), so the next disruption need not wait for it.
 */
async function disrupt(stage: Stage, disruption: Disruption, phase: string): Promise<{ recovery: Promise<boolean> }> {
  const { apps, progress, random, context } = stage;
  const hit = disruption.kind === 'kill' ? [disruption.victim] : VICTIMS;
  const before = new Map<AppName, Progress>();
  for (const name of hit) before.set(name, await progress.of(name));
  const t = performance.now();
  let what: string;
  if (disruption.kind === 'kill') {
    const app = apps[disruption.victim];
    await app.kill();
    const delay = random.int(200, 2_000);
    await sleep(delay);
    app.start();
    what = `SIGKILL ${app.name} (${phase}, at ${before.get(app.name) ?? 'start-up'}), restarted after ${delay} ms`;
  } else if (disruption.kind === 'kafka') {
    await stage.kafka.restart();
    what = 'Kafka broker restarted';
  } else {
    await stage.postgres.restart();
    what = 'Postgres restarted';
  }
  const recover = async (): Promise<boolean> => {
    try {
      for (const name of hit)
        await eventually(
          () => progress.movedOn(name, before.get(name) ?? null),
          `${name} to recover`,
          RECOVERY_TIMEOUT_MS,
          POLL_MS,
        );
      context.log(`${what}: recovered in ${secondsSince(t)} s`);
      return true;
    } catch (error) {
      const stuck = hit.map((name) => `${name}:\n${apps[name].logTail()}`).join('\n');
      stage.record.failures.push(`${what}: ${(error as Error).message} after ${secondsSince(t)} s\n${stuck}`);
      return false;
    }
  };
  return { recovery: recover() };
}

/** SIGKILLs a random app; its recovery is awaited with the phase's others (kills may come faster than start-ups). */
async function kill(stage: Stage, phase: 'backfill' | 'realtime', recoveries: Promise<void>[]): Promise<void> {
  const victim = stage.random.pick(VICTIMS);
  stage.record.kills += 1;
  if (phase === 'backfill') stage.record.backfillKills += 1;
  const { recovery } = await disrupt(stage, { kind: 'kill', victim }, phase);
  recoveries.push(recovery.then((ok) => void (ok && (stage.record.killsSurvived += 1))));
}

/** Kills at random moments while the history is being indexed and folded, until it is or `kills` are done. */
async function chaosDuringBackfill(stage: Stage, kills: number): Promise<void> {
  const recoveries: Promise<void>[] = [];
  for (let i = 0; i < kills; i++) {
    await sleep(stage.random.int(500, 3_000));
    if (await stage.progress.caughtUp()) break;
    await kill(stage, 'backfill', recoveries);
  }
  await Promise.all(recoveries);
}

/** Once caught up: the kills left and one restart each of Kafka and Postgres, in a seeded random order. */
async function chaosDuringRealtime(stage: Stage, kills: number): Promise<void> {
  await eventually(() => stage.progress.caughtUp(), 'the backfill to finish', CONVERGE_TIMEOUT_MS, POLL_MS);
  stage.context.log(`backfill done after ${stage.record.backfillKills} kill(s)`);
  const recoveries: Promise<void>[] = [];
  const plan = [...Array<'kill'>(kills).fill('kill'), 'kafka', 'postgres'] as const;
  for (const step of stage.random.sample(plan, plan.length)) {
    await sleep(stage.random.int(1_000, 5_000));
    if (step === 'kill') {
      await kill(stage, 'realtime', recoveries);
    } else {
      // everything must be back before the broker or the database goes: each is tried on a working pipeline
      await Promise.all(recoveries);
      stage.record[step === 'kafka' ? 'kafkaRestarts' : 'postgresRestarts'] += 1;
      await (
        await disrupt(stage, { kind: step }, 'realtime')
      ).recovery;
    }
  }
  await Promise.all(recoveries);
}

/** The chaos pipeline reaches the final head and folds the log's end; every app is up and working. */
async function converge(stage: Stage, head: number): Promise<number> {
  await stage.progress.waitIndexed(head, CONVERGE_TIMEOUT_MS);
  const log = await readLog({ kind: 'kafka', brokers: stage.kafka.brokers, chainId: stage.chain.deployment.chainId });
  const last = log.at(-1);
  if (last) await waitStoredPosition(stage.postgres.url, last.position, CONVERGE_TIMEOUT_MS);
  await eventually(() => stage.progress.apiAnswers(), 'the API to answer', RECOVERY_TIMEOUT_MS, POLL_MS);
  return log.length;
}

export const chaosSuite: ReliabilitySuite = {
  name: 'chaos',
  async run(context): Promise<SuiteOutcome> {
    const sizes = context.quick ? SIZES.quick : SIZES.full;
    const random = new SeededRandom(`chaos-${context.seed}`);
    const record = new ChaosRecord();
    const started = performance.now();
    const runDir = mkdtempSync(join(tmpdir(), 'lottery-chaos-'));
    context.log(`app logs in ${runDir}`);

    context.log(`history: a bulk simulation of ~${sizes.indexedEvents} indexed events…`);
    const chain = await startLotteryChain(context.seed, sizes.indexedEvents);
    const cleanUp: (() => Promise<void>)[] = [() => chain.anvil.stop()];
    try {
      const kafka = await startKafka();
      cleanUp.push(() => kafka.stop());
      const postgres = await startRestartablePostgres();
      cleanUp.push(() => postgres.stop());
      const ports = { indexer: await freePort(), projector: await freePort(), api: await freePort() };
      const env = appEnvironments({
        rpcUrl: chain.anvil.rpcUrl,
        deployment: chain.deployment,
        startBlock: Number(chain.deployment.deployBlock),
        databaseUrl: postgres.url,
        kafkaBrokers: kafka.brokers,
        ports,
      });
      const unplanned = (app: SupervisedApp, how: string) =>
        context.log(`${app.name} exited by itself (${how}); restarting it (log: ${app.logFile})`);
      const apps = Object.fromEntries(
        VICTIMS.map((name) => [name, new SupervisedApp(name, env[name], join(runDir, `${name}.log`), unplanned)]),
      ) as Record<AppName, SupervisedApp>;
      cleanUp.push(() => Promise.all(VICTIMS.map((name) => apps[name].stop())).then(() => undefined));
      const stage: Stage = {
        chain,
        kafka,
        postgres,
        apps,
        progress: new PipelineProgress(ports),
        random,
        record,
        context,
      };

      // Live activity from the start, as a real chain moves on during a backfill. Started before the apps:
      // funding its wallets takes many blocks, which a loaded anvil mines slowly.
      const live = await startLiveActivity(chain, context.seed, () => void (record.simulatorErrors += 1));
      const t = performance.now();
      try {
        for (const name of VICTIMS) apps[name].start();
        await chaosDuringBackfill(stage, sizes.backfillKills);
        await chaosDuringRealtime(stage, sizes.backfillKills + sizes.realtimeKills - record.backfillKills);
      } finally {
        await live.stop();
      }
      const head = await headOf(chain.anvil.rpcUrl);
      context.log(`chaos over after ${secondsSince(t)} s; converging on head ${head}…`);
      const logRecords = await converge(stage, head);
      const crashes = VICTIMS.map((name) => apps[name].unplannedExits);
      await Promise.all(VICTIMS.map((name) => apps[name].stop()));

      context.log('clean replay of the final chain (fresh indexer from block 0, fresh projector)…');
      const replay = await cleanReplay(chain, postgres.url, head, runDir, CONVERGE_TIMEOUT_MS);
      for (const exit of replay.unplannedExits) record.failures.push(`the clean replay's ${exit}`);
      const chaosLog = await readLog({ kind: 'kafka', brokers: kafka.brokers, chainId: chain.deployment.chainId });
      const logs = compareLogs(chaosLog, replay.log);
      const rows = await compareReadModels(postgres.url, replay.databaseUrl);

      if (logs.missing.length > 0)
        record.failures.push(
          `${logs.missing.length} event(s) of the chain missing from the chaos log, e.g. ${logs.missing.slice(0, 3).join(', ')}`,
        );
      if (logs.extra.length > 0)
        record.failures.push(
          `${logs.extra.length} event(s) in the chaos log the chain does not hold, e.g. ${logs.extra.slice(0, 3).join(', ')}`,
        );
      if (logs.reordered) record.failures.push("the chaos log holds the chain's events in another order");
      if (rows.rowsDiffering > 0)
        record.failures.push(
          `${rows.rowsDiffering} read-model row(s) differ from the clean replay (- replay only, + chaos only):\n${rows.samples.join('\n')}`,
        );
      if (record.failures.length === 0) rmSync(runDir, { recursive: true, force: true });
      else context.log(`app logs kept in ${runDir}`);

      const unplannedTotal = crashes.reduce((a, b) => a + b, 0);
      const crashNote = VICTIMS.map((name, i) => `${name} ${crashes[i]}`).join(', ');
      return {
        title: 'Chaos: SIGKILLs, a Kafka and a Postgres restart, then a full dump against a clean replay',
        intro:
          `anvil with the lottery (a seeded bulk history of ${chain.historyEvents.toLocaleString('en-US')} lottery logs, then ` +
          'live simulator activity); indexer → Kafka 3.9 → projector → embedded Postgres → API, each its own process. ' +
          `${record.kills} SIGKILLs at seeded random moments (seed ${context.seed}) of a random app, restarted 0.2–2 s later; ` +
          'the broker and Postgres restarted once each during realtime; then the read models are compared row for row ' +
          'with a clean replay of the final chain (fresh indexer from block 0 → Postgres log → fresh projector).',
        rows: [
          { figure: 'SIGKILLs', value: String(record.kills), note: `${record.backfillKills} during the backfill` },
          { figure: 'kills survived', value: String(record.killsSurvived), note: 'the killed app back and moving on' },
          { figure: 'Kafka / Postgres restarts', value: `${record.kafkaRestarts} / ${record.postgresRestarts}` },
          {
            figure: 'apps that died by themselves',
            value: String(unplannedTotal),
            note: `${crashNote}; all restarted by the supervisor`,
          },
          {
            figure: 'events in the chaos log',
            value: logs.canonical.toLocaleString('en-US'),
            note: `${logRecords.toLocaleString('en-US')} records, ${logs.reappended} re-appended`,
          },
          { figure: 'read-model rows differing from the clean replay', value: String(rows.rowsDiffering) },
        ],
        figures: {
          chaos_kills: record.kills,
          kills_survived: record.killsSurvived,
          chaos_kafka_restarts: record.kafkaRestarts,
          chaos_postgres_restarts: record.postgresRestarts,
          chaos_events: logs.canonical,
          rows_differing: rows.rowsDiffering,
          chaos_app_crashes_unplanned: unplannedTotal,
          chaos_log_reappended: logs.reappended,
          chaos_simulator_errors: record.simulatorErrors,
        },
        failures: record.failures,
      };
    } finally {
      for (const step of cleanUp.reverse()) await step().catch(() => undefined);
      context.log(`done in ${secondsSince(started)} s`);
    }
  },
};
