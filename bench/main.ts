/**
 * `npm run bench [-- --quick]`: the performance part of issue 9 on one anvil history.
 *
 *   1. history   anvil + the lottery + ≥ 200,000 events (bulk simulator), then empty blocks
 *   2. ceiling   raw eth_getLogs throughput of the node over the whole history
 *   3. indexer   ChainFollower from empty to caught up, into the Postgres and into the Kafka event log
 *   4. fold      the projector's fold (replay and live batches) vs raw COPY of the same rows; where realtime
 *                latency goes inside the indexer (in-process follower at the head, each event log)
 *   5. pipeline  indexer, projector and API as processes: catch-up time, block-mined → ticket visible
 *                through GET /v1/wallets/{address}/tickets (p50/p95/p99), RSS of each app
 *   6. ponder    the same history indexed by Ponder 0.16 into the same Postgres, when it can run here
 *   7. api       bench/api/main.ts (its own process and data sets): the Data API against a raw Fastify + pg
 *                server at 1,000,000 and 10,000,000 tickets (--quick: 100,000), RSS of both
 *
 * Prints every figure, writes bench/RESULTS.md and bench/results.json. Needs what `npm test` needs: a
 * Postgres server (DATABASE_URL), Redis (REDIS_URL), Java for the Kafka broker (or --no-kafka).
 */
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { createSimulationContext } from '@lottery/contracts';
import { createEventLog, type EventLog } from '@lottery/event-log';
import {
  currentLoad,
  describeMachine,
  fmt,
  gitCommit,
  LoadMonitor,
  pct,
  startKafka,
  type KafkaBroker,
} from '@lottery/testing';
import { APP_NODE_FLAGS, appNodeArgs } from '@lottery/telemetry';
import { type BenchOptions, parseOptions } from './lib/options';
import { createScratchDatabase, postgresVersion, type ScratchDatabase } from './lib/postgres';
import { writeReport, type Report, type Row, type Section } from './lib/report';
import { log, round } from './lib/stats';
import { buildChainHistory, headOf, indexedAddresses, type ChainHistory } from './stages/chain-history';
import { measureGetLogsCeiling, surveyLogs } from './stages/get-logs-ceiling';
import { INDEXER_DEFAULTS, timeBackfill, type BackfillRun } from './stages/indexer-backfill';
import { diagnoseRealtime, type RealtimeDiagnostics } from './stages/realtime-diagnostics';
import { timeCopyCeiling, timeLiveFold, timeReplay } from './stages/projector-fold';
import { describeCpu } from './lib/processes';
import { POLL_GAP_MS, runPipeline, type Latency, type PipelineResult } from './stages/pipeline';
import { runPonder, type PonderOutcome } from './stages/ponder';

const LATENCY_GOAL_MS = 300;

function latencyRows(label: string, l: Latency, headline: boolean): Row[] {
  const bold = (text: string): string => (headline ? `**${text}**` : text);
  const goal =
    l.p95 < LATENCY_GOAL_MS
      ? `goal < ${LATENCY_GOAL_MS} ms met`
      : `goal < ${LATENCY_GOAL_MS} ms missed by ${fmt(l.p95 - LATENCY_GOAL_MS)} ms`;
  return [
    {
      figure: `${label}: samples`,
      value: fmt(l.samples),
      note: `${l.failed > 0 ? `${l.failed} not visible within 15 s` : 'all visible'}; mean ${fmt(l.mean)} ms, min ${fmt(l.min)} ms, max ${fmt(l.max)} ms`,
    },
    { figure: `${label}: p50`, value: `${fmt(l.p50)} ms` },
    { figure: bold(`${label}: p95`), value: bold(`${fmt(l.p95)} ms`), note: goal },
    { figure: `${label}: p99`, value: `${fmt(l.p99)} ms` },
    {
      figure: `${label}: breakdown (${l.probedSamples} probed samples)`,
      value: `${fmt(l.inApi.p50)} ms`,
      note:
        `p50 mined → appended to the event log ${fmt(l.inLog.p50)} ms → applied to the read models ${fmt(l.inReadModels.p50)} ms → visible in the API ${fmt(l.inApi.p50)} ms; ` +
        `p95 ${fmt(l.inLog.p95)} / ${fmt(l.inReadModels.p95)} / ${fmt(l.inApi.p95)} ms`,
    },
  ];
}
const PONDER_GOAL_RATIO = 3;

async function main(): Promise<void> {
  // Ctrl-C or a kill: exit through 'exit', whose handlers stop anvil, the Kafka broker and the apps
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  const options = parseOptions(process.argv.slice(2));
  const commit = gitCommit();
  const machine = describeMachine(await postgresVersion());
  const mode = options.quick
    ? `quick (--quick: ≥ ${options.events} events, ${options.samples} samples)`
    : `full (≥ ${options.events} events, ${options.samples} samples)`;
  log(`${mode} on ${machine.cores} cores, ${machine.ramGb} GB, Node ${machine.node}, load ${machine.loadAtStart}`);

  const figures: Record<string, number> = {};
  const sections: Section[] = [];
  const notes: string[] = [];
  let database: ScratchDatabase | undefined;
  let broker: KafkaBroker | undefined;
  let history: ChainHistory | undefined;
  const logs: EventLog[] = [];
  const load = new LoadMonitor();
  try {
    database = await createScratchDatabase('bench');
    log(`scratch database ${database.name}; generating the history${options.kafka ? ' and starting Kafka' : ''}`);
    const kafkaStarting = options.kafka ? startKafka() : Promise.resolve(undefined);
    kafkaStarting.catch(() => undefined);
    history = await buildChainHistory(options);
    const { bulk, deployment } = history;
    const rpcUrl = history.anvil.rpcUrl;
    log(
      `history: ${history.indexedEvents} indexed events (simulator: ${bulk.events} lottery logs incl. ticket NFT mints, ${bulk.tickets} tickets, ${bulk.orders} orders, ${bulk.drawings} draws) in ` +
        `${bulk.blocks} blocks + ${options.trailingBlocks} empty, blocks ${history.fromBlock}–${history.head}, ${history.seconds.toFixed(1)} s`,
    );
    figures['history_events'] = history.indexedEvents;
    figures['history_contract_logs'] = bulk.events;
    figures['history_tickets'] = bulk.tickets;
    figures['history_blocks'] = history.head - history.fromBlock + 1;
    figures['history_seconds'] = history.seconds;

    // 2. eth_getLogs ceiling
    load.stage('getlogs');
    log('eth_getLogs ceiling');
    const addresses = indexedAddresses(deployment);
    const ceiling = await measureGetLogsCeiling(rpcUrl, addresses, history.fromBlock, history.head);
    figures['getlogs_logs'] = ceiling.totalLogs;
    figures['getlogs_logs_per_s'] = ceiling.best.logsPerSecond;
    for (const run of ceiling.runs) {
      const key =
        run.targetLogs === null
          ? 'getlogs_whole_range_logs_per_s'
          : `getlogs_${run.targetLogs}x${run.concurrency}_logs_per_s`;
      figures[key] = run.logsPerSecond;
    }

    // 3. indexer into each event log
    broker = await kafkaStarting;
    load.stage('indexer');
    log('indexer (ChainFollower) from empty to caught up');
    const pgLog = createEventLog({ kind: 'postgres', databaseUrl: database.url, schema: 'bench_log' });
    logs.push(pgLog);
    const backfills: BackfillRun[] = [await timeBackfill('postgres', pgLog, rpcUrl, deployment, history.head)];
    let kafkaLog: EventLog | undefined;
    if (broker) {
      kafkaLog = createEventLog({
        kind: 'kafka',
        brokers: broker.brokers,
        chainId: deployment.chainId,
        topicPrefix: 'bench',
      });
      logs.push(kafkaLog);
      backfills.push(await timeBackfill('kafka', kafkaLog, rpcUrl, deployment, history.head));
    }
    for (const run of backfills) {
      figures[`backfill_${run.log}_events_per_s`] = run.eventsPerSecond;
      figures[`backfill_${run.log}_seconds`] = run.seconds;
      figures[`backfill_${run.log}_share_of_getlogs`] = run.eventsPerSecond / ceiling.best.logsPerSecond;
      figures[`backfill_${run.log}_ranged_events_per_s`] = run.backfillEvents / run.backfillSeconds;
      figures[`backfill_${run.log}_getlogs_refused`] = run.getLogs.refused;
      figures[`backfill_${run.log}_getlogs_refused_seconds`] = run.getLogs.refusedSeconds;
      figures[`backfill_${run.log}_append_seconds`] = run.appends.seconds;
    }
    const production = backfills.find((r) => r.log === 'kafka') ?? backfills[0];
    if (production) {
      figures['backfill_events_per_s'] = production.eventsPerSecond;
      figures['backfill_share_of_getlogs'] = production.eventsPerSecond / ceiling.best.logsPerSecond;
    }
    if (backfills[0] && backfills[0].events !== ceiling.totalLogs)
      notes.push(`The indexer appended ${backfills[0].events} events for ${ceiling.totalLogs} logs on chain.`);

    // 4. fold vs COPY
    load.stage('fold');
    log('projector fold vs COPY');
    const replay = await timeReplay(database.url, deployment.chainId, pgLog, 'bench_replay');
    const live = await timeLiveFold(database.url, deployment.chainId, pgLog, 'bench_live');
    const copy = await timeCopyCeiling(database.url, 'bench_replay', 'bench_copy');
    const copyCeilingEventsPerS = replay.events / copy.indexedSeconds;
    Object.assign(figures, {
      replay_events_per_s: replay.eventsPerSecond,
      replay_fold_events_per_s: replay.foldEventsPerSecond,
      replay_seconds: replay.seconds,
      live_fold_events_per_s: live.eventsPerSecond,
      copy_rows: copy.rows,
      copy_rows_per_s: copy.rows / copy.indexedSeconds,
      copy_bare_rows_per_s: copy.rows / copy.bareSeconds,
      copy_ticket_rows: copy.ticketRows,
      copy_ticket_rows_per_s: copy.ticketRows / copy.ticketIndexedSeconds,
      copy_ticket_bare_rows_per_s: copy.ticketRows / copy.ticketBareSeconds,
      copy_seconds: copy.indexedSeconds,
      copy_ceiling_events_per_s: copyCeilingEventsPerS,
      replay_share_of_copy: replay.eventsPerSecond / copyCeilingEventsPerS,
      live_fold_share_of_copy: live.eventsPerSecond / copyCeilingEventsPerS,
    });
    // 4b. where realtime latency goes inside the indexer, per event log
    load.stage('diagnostics');
    log('realtime diagnostics: in-process follower at the head');
    const latencyCtx = await createSimulationContext(rpcUrl, deployment, {
      seed: 'bench-diagnostics',
      wallets: { players: 4, referrers: 0, lps: 0 },
    });
    const diagnosticSamples = Math.max(20, Math.min(30, Math.ceil(options.samples / 10)));
    const diagnostics: RealtimeDiagnostics[] = [];
    diagnostics.push(await diagnoseRealtime('postgres', pgLog, latencyCtx, diagnosticSamples));
    if (kafkaLog) diagnostics.push(await diagnoseRealtime('kafka', kafkaLog, latencyCtx, diagnosticSamples));
    for (const d of diagnostics) {
      figures[`realtime_${d.log}_to_append_p50_ms`] = d.toAppend.p50;
      figures[`realtime_${d.log}_append_p50_ms`] = d.append.p50;
      figures[`realtime_${d.log}_append_p95_ms`] = d.append.p95;
    }
    for (const l of logs.splice(0)) await l.close();

    // 5. the apps as processes
    load.stage('pipeline');
    log(`pipeline: indexer → ${broker ? 'Kafka' : 'Postgres log'} → projector → API as processes`);
    // the diagnostics added a few purchases: the pipeline (and Ponder) take the chain as it is now
    const pipelineHead = await headOf(rpcUrl);
    const chainNow = await surveyLogs(rpcUrl, addresses, history.fromBlock, pipelineHead);
    if (!chainNow.lastLog) throw new Error('the history has no lottery log');
    const pipeline: PipelineResult = await runPipeline({
      rpcUrl,
      deployment,
      databaseUrl: database.url,
      kafkaBrokers: broker?.brokers ?? null,
      lastLog: chainNow.lastLog,
      events: chainNow.total,
      samples: options.samples,
    });
    figures['pipeline_events'] = chainNow.total;
    Object.assign(figures, {
      realtime_polling_samples: pipeline.pollingLatency.samples,
      realtime_polling_p50_ms: pipeline.pollingLatency.p50,
      realtime_polling_p95_ms: pipeline.pollingLatency.p95,
      realtime_polling_p99_ms: pipeline.pollingLatency.p99,
      realtime_polling_in_log_p50_ms: pipeline.pollingLatency.inLog.p50,
      realtime_polling_in_read_models_p50_ms: pipeline.pollingLatency.inReadModels.p50,
    });
    Object.assign(figures, {
      pipeline_seconds: pipeline.caughtUpSeconds,
      pipeline_events_per_s: pipeline.eventsPerSecond,
      pipeline_indexer_seconds: pipeline.indexerCaughtUpSeconds,
      pipeline_indexer_stalls: pipeline.indexerStalls,
      pipeline_indexer_rpc_errors: pipeline.indexerRpcErrors,
      realtime_samples: pipeline.latency.samples,
      realtime_failed: pipeline.latency.failed,
      realtime_p50_ms: pipeline.latency.p50,
      realtime_p95_ms: pipeline.latency.p95,
      realtime_p99_ms: pipeline.latency.p99,
      realtime_mean_ms: pipeline.latency.mean,
      realtime_max_ms: pipeline.latency.max,
      realtime_in_log_p50_ms: pipeline.latency.inLog.p50,
      realtime_in_log_p95_ms: pipeline.latency.inLog.p95,
      realtime_in_read_models_p50_ms: pipeline.latency.inReadModels.p50,
      realtime_in_read_models_p95_ms: pipeline.latency.inReadModels.p95,
    });
    for (const [name, seconds] of Object.entries(pipeline.catchUpCpuSeconds)) {
      figures[`pipeline_cpu_${name.replace(/\W+/g, ' ').trim().replace(/ /g, '_')}_s`] = seconds;
    }
    for (const [app, rss] of Object.entries(pipeline.rss)) {
      figures[`rss_${app}_catchup_peak_mb`] = rss.catchUpPeakMb;
      figures[`rss_${app}_peak_mb`] = rss.peakMb;
      figures[`rss_${app}_end_mb`] = rss.endMb;
    }

    // 6. Ponder
    let ponder: PonderOutcome = { ran: false, reason: 'skipped (--no-ponder)' };
    if (options.ponder) {
      load.stage('ponder');
      log('Ponder 0.16 on the same history');
      ponder = await runPonder({
        rpcUrl,
        deployment,
        databaseUrl: database.url,
        head: pipelineHead,
        events: chainNow.total,
        tickets: bulk.tickets,
      });
    }
    if (ponder.ran) {
      figures['ponder_seconds'] = ponder.seconds;
      figures['ponder_events_per_s'] = ponder.eventsPerSecond;
      figures['ratio_vs_ponder'] = ponder.seconds / pipeline.caughtUpSeconds;
      figures['rss_ponder_peak_mb'] = ponder.peakRssMb;
    }

    // the report
    const events = chainNow.total;
    const catchUpCpu = Object.values(pipeline.catchUpCpuSeconds).reduce((a, b) => a + b, 0);
    sections.push(
      {
        title: 'History',
        intro:
          `One anvil chain (block gas limit ${options.gasLimit.toLocaleString('en-US')}: the bulk simulator mines its orders of 150 tickets a few per block), ` +
          `then ${options.trailingBlocks} empty blocks so that the indexer's realtime window (the last REORG_DEPTH = 128 blocks) holds no history, as on a live chain.`,
        rows: [
          {
            figure: 'indexed lottery events',
            value: fmt(history.indexedEvents),
            note: `${fmt(bulk.tickets)} tickets, ${fmt(bulk.orders)} orders, ${fmt(bulk.drawings)} draws; the logs of the five contracts the indexer reads (all but the ticket NFT)`,
          },
          {
            figure: 'all lottery-contract logs',
            value: fmt(bulk.events),
            note: 'as the bulk simulator counts them, ticket NFT mint logs included',
          },
          {
            figure: 'blocks',
            value: fmt(history.head - history.fromBlock + 1),
            note: `${fmt(bulk.blocks)} with orders`,
          },
          {
            figure: 'generation time',
            value: `${fmt(history.seconds, 1)} s`,
            note: `bulk simulator: ${fmt(bulk.eventsPerSecond)} events/s`,
          },
        ],
      },
      {
        title: 'Indexer vs the eth_getLogs ceiling',
        intro:
          "Ceiling: raw `fetch` + `JSON.parse` of `eth_getLogs` with the indexer's filter (its five contracts, the lottery topics) over the whole history, " +
          'in ideal ranges of at most N logs each (planned from a survey pass, so no request is ever refused or split), one or four in flight; the fastest shape counts. ' +
          "Indexer: `ChainFollower` with the indexer app's defaults, in this process, from an empty log until it reports the head in realtime mode " +
          '(decoding, envelopes, the `edgePerTicket` calls, appends with checkpoints in one transaction each).',
        rows: [
          ...ceiling.runs.map((r) => ({
            figure: `eth_getLogs, ${r.label}`,
            value: `${fmt(r.logsPerSecond)} logs/s`,
            note: `${r.requests} requests, ${fmt(r.megabytes)} MB, ${fmt(r.seconds, 2)} s`,
          })),
          {
            figure: '**eth_getLogs ceiling**',
            value: `**${fmt(ceiling.best.logsPerSecond)} logs/s**`,
            note: ceiling.best.label,
          },
          ...backfills.map((r) => ({
            figure: `**indexer → ${r.log} event log**`,
            value: `**${fmt(r.eventsPerSecond)} events/s**`,
            note:
              `${fmt(r.events)} events in ${fmt(r.seconds, 2)} s; **${pct(r.eventsPerSecond / ceiling.best.logsPerSecond)} of the ceiling**; ` +
              `the ranged backfill alone: ${fmt(r.backfillEvents)} events in ${fmt(r.backfillSeconds, 2)} s = ${fmt(r.backfillEvents / r.backfillSeconds)} events/s ` +
              `(${pct(r.backfillEvents / r.backfillSeconds / ceiling.best.logsPerSecond)}), then the last 128 blocks in windows of up to 32. ` +
              `Time: ${r.getLogs.ok} eth_getLogs ${fmt(r.getLogs.okSeconds, 2)} s, **${r.getLogs.refused} refused as too large ${fmt(r.getLogs.refusedSeconds, 2)} s**, ` +
              `${r.appends.count} appends ${fmt(r.appends.seconds, 2)} s (largest ${fmt(r.appends.largest)} events)`,
          })),
        ],
      },
      {
        title: 'Projector vs the COPY ceiling',
        intro:
          'Fold: the events of the Postgres event log above. Ceiling: the rows the fold produced (all read-model tables), ' +
          'dumped with `COPY TO` and loaded with `COPY FROM` into a freshly migrated schema with the same indexes ("indexed") and into bare tables ("bare"). ' +
          'The COPY ceiling in events/s is the events of the history divided by the indexed COPY time of its rows.',
        rows: [
          {
            figure: '**replay** (`replayIntoFreshSchema`: fold, index build, switch)',
            value: `**${fmt(replay.eventsPerSecond)} events/s**`,
            note: `${fmt(replay.events)} events in ${fmt(replay.seconds, 2)} s; fold alone ${fmt(replay.foldEventsPerSecond)} events/s, index build ${fmt(replay.indexSeconds, 2)} s`,
          },
          {
            figure: 'live fold (`Projection.applyBatch`, batches of 5,000, all indexes)',
            value: `${fmt(live.eventsPerSecond)} events/s`,
            note: `${fmt(live.events)} events in ${fmt(live.seconds, 2)} s`,
          },
          {
            figure: 'COPY of the ticket rows',
            value: `${fmt(copy.ticketRows / copy.ticketIndexedSeconds)} rows/s`,
            note: `${fmt(copy.ticketRows)} rows in ${fmt(copy.ticketIndexedSeconds, 2)} s indexed; bare ${fmt(copy.ticketRows / copy.ticketBareSeconds)} rows/s`,
          },
          {
            figure: 'COPY of all read-model rows',
            value: `${fmt(copy.rows / copy.indexedSeconds)} rows/s`,
            note: `${fmt(copy.rows)} rows (${copy.tables.map((t) => `${t.table} ${fmt(t.rows)}`).join(', ')}) in ${fmt(copy.indexedSeconds, 2)} s; bare ${fmt(copy.bareSeconds, 2)} s`,
          },
          {
            figure: '**COPY ceiling**',
            value: `**${fmt(copyCeilingEventsPerS)} events/s**`,
            note: `${fmt(replay.events)} events' rows in ${fmt(copy.indexedSeconds, 2)} s`,
          },
          {
            figure: '**replay share of the COPY ceiling**',
            value: `**${pct(replay.eventsPerSecond / copyCeilingEventsPerS)}**`,
            note: `live fold: ${pct(live.eventsPerSecond / copyCeilingEventsPerS)}`,
          },
        ],
      },
      {
        title: 'Pipeline: the apps as processes',
        intro:
          `indexer → ${pipeline.eventLog} event log → projector → Postgres → API, each app its own \`node -r tools/register.js apps/<app>/src/main.ts\` process (the indexer and the projector with \`${APP_NODE_FLAGS['indexer']?.join(' ')}\`) with production defaults ` +
          `(${Object.entries(pipeline.settings)
            .map(([k, v]) => `${k}: ${v}`)
            .join(
              '; ',
            )}). Catch-up is timed from spawning the indexer and the projector on an empty log and empty read models ` +
          `until the projector has applied the history's last log (start-up of the processes included); the API starts after it. ` +
          `Before it, as before Ponder's run, Postgres takes a CHECKPOINT and the machine is left until it is idle (bench/lib/settle.ts).`,
        rows: [
          {
            figure: 'indexer caught up (head block indexed)',
            value: `${fmt(pipeline.indexerCaughtUpSeconds, 2)} s`,
            note:
              `${fmt(events / pipeline.indexerCaughtUpSeconds)} events/s; its metrics on the way: ` +
              `${fmt(pipeline.indexerStalls)} stall-watchdog restart(s), ${fmt(pipeline.indexerRpcErrors)} failed RPC call(s)`,
          },
          {
            figure: '**read models caught up (empty → last event applied)**',
            value: `**${fmt(pipeline.caughtUpSeconds, 2)} s**`,
            note: `**${fmt(pipeline.eventsPerSecond)} events/s** end to end`,
          },
          {
            figure: 'CPU time during the catch-up',
            value: `${fmt(catchUpCpu, 1)} s`,
            note:
              `${describeCpu(pipeline.catchUpCpuSeconds)}; ` +
              `${fmt(catchUpCpu / pipeline.caughtUpSeconds, 2)} cores busy on average, of ${cpus().length}`,
          },
          ...Object.entries(pipeline.rss).map(([app, r]) => ({
            figure: `RSS of ${app}`,
            value: `${fmt(r.peakMb)} MB`,
            note:
              `peak (defaults run)` +
              (Number.isFinite(r.catchUpPeakMb)
                ? `; ${fmt(r.catchUpPeakMb)} MB peak while catching up`
                : '; started after the catch-up') +
              `; ${fmt(r.endMb)} MB after the latency run`,
          })),
        ],
      },
      {
        title: 'Realtime latency: block mined → ticket visible in the API',
        intro:
          `A one-ticket purchase for a fresh wallet is sent to anvil (automine); the block counts as mined when the transaction's receipt first answers (polled every 2 ms). ` +
          `\`GET /v1/wallets/{wallet}/tickets\` (with an API key) is then polled every ${POLL_GAP_MS} ms until the ticket is listed. ` +
          `A random pause of 20–250 ms between samples spreads them over the indexer's head poll. Goal: p95 < ${LATENCY_GOAL_MS} ms. ` +
          `One extra sample after every ten also polls the indexer's \`indexer_indexed_block\` metric (appended to the event log) and the projector's cursor ` +
          `(applied to the read models) for the breakdown; those samples are not in the headline figures, as the extra polling costs the apps CPU. ` +
          `First with the indexer on RPC_WS_URL (anvil's newHeads) and the other defaults, then with the indexer restarted on the same log with ${pipeline.pollingSettings}.`,
        rows: [
          ...latencyRows('RPC_WS_URL (newHeads)', pipeline.latency, true),
          ...latencyRows(pipeline.pollingSettings, pipeline.pollingLatency, false),
          ...diagnostics.map((d) => ({
            figure: `inside the indexer, ${d.log} event log (in-process follower, 50 ms head poll, ${d.samples} samples)`,
            value: `append p50 ${fmt(d.append.p50)} ms`,
            note: `append p95 ${fmt(d.append.p95)} ms; mined → append called p50 ${fmt(d.toAppend.p50)} ms, p95 ${fmt(d.toAppend.p95)} ms (head poll, block, logs, header)`,
          })),
        ],
      },
      {
        title: 'Versus Ponder',
        intro: ponder.ran ? ponder.description : `Not measured: ${ponder.reason}`,
        rows: ponder.ran
          ? [
              {
                figure: 'Ponder, empty → caught up',
                value: `${fmt(ponder.seconds, 2)} s`,
                note: `${fmt(ponder.eventsPerSecond)} events/s; ${ponder.version}; peak RSS ${fmt(ponder.peakRssMb)} MB`,
              },
              {
                figure: 'this system, empty → caught up',
                value: `${fmt(pipeline.caughtUpSeconds, 2)} s`,
                note: `indexer → ${pipeline.eventLog} → projector`,
              },
              {
                figure: '**ratio (Ponder time / ours)**',
                value: `**${fmt(ponder.seconds / pipeline.caughtUpSeconds, 2)}×**`,
                note:
                  ponder.seconds / pipeline.caughtUpSeconds >= PONDER_GOAL_RATIO
                    ? `goal ≥ ${PONDER_GOAL_RATIO}× met`
                    : `goal ≥ ${PONDER_GOAL_RATIO}× missed`,
              },
            ]
          : [
              {
                figure: 'this system, empty → caught up',
                value: `${fmt(pipeline.caughtUpSeconds, 2)} s`,
                note: 'for comparison with a Ponder run elsewhere',
              },
            ],
      },
    );
    notes.push(
      `History: "events" are the logs of the five contracts the indexer reads (Jackpot, LP manager, payout calculator, random ticket buyer, daily pool). ` +
        `The bulk simulator's own count (${fmt(bulk.events)}) also includes the ticket NFT's mint logs, one per ticket, which no indexer here reads.`,
    );
    const l = pipeline.latency;
    const kafkaDiag = diagnostics.find((d) => d.log === 'kafka');
    const pgDiag = diagnostics.find((d) => d.log === 'postgres');
    notes.push(
      `Realtime latency: p95 ${fmt(l.p95)} ms with RPC_WS_URL (the node's newHeads), ${l.p95 < LATENCY_GOAL_MS ? 'within' : `${fmt(l.p95 - LATENCY_GOAL_MS)} ms above`} the ${LATENCY_GOAL_MS} ms goal; ` +
        `${fmt(pipeline.pollingLatency.p95)} ms with ${pipeline.pollingSettings} (${pipeline.pollingLatency.p95 < LATENCY_GOAL_MS ? 'within the goal' : `${fmt(pipeline.pollingLatency.p95 - LATENCY_GOAL_MS)} ms above it`}). ` +
        `Where it goes (probed samples, p50): ${fmt(l.inLog.p50)} ms until the block's events are in the event log, ${fmt(l.inReadModels.p50 - l.inLog.p50)} ms more until the projector has applied them, ` +
        `${fmt(l.inApi.p50 - l.inReadModels.p50)} ms more until the API lists the ticket. With RPC_WS_URL the indexer reads a block when the node announces it; without, it polls the head every ${INDEXER_DEFAULTS.pollIntervalMs} ms (about ${INDEXER_DEFAULTS.pollIntervalMs / 2} ms on average before it sees a new block)` +
        (pgDiag && kafkaDiag
          ? `; inside the indexer (in-process, 50 ms poll) a mined block reached the append after p50 ${fmt(kafkaDiag.toAppend.p50)} ms (the 50 ms head poll, then eth_blockNumber, the block, its logs and its header), ` +
            `and the append itself took p50 ${fmt(kafkaDiag.append.p50)} ms to Kafka (a transaction with the checkpoint record) versus ${fmt(pgDiag.append.p50)} ms to Postgres`
          : '') +
        `. The projector delivers a batch as soon as the log holds nothing more (BATCH_MAX_WAIT_MS 0). ` +
        `Every process shares the ${machine.cores} cores with anvil, Postgres, Kafka and Redis, and with any other work on the machine (see the load averages).`,
    );
    const pgRun = backfills.find((r) => r.log === 'postgres');
    if (pgRun && production)
      notes.push(
        `Indexer vs eth_getLogs: ${pct(production.eventsPerSecond / ceiling.best.logsPerSecond)} of the ceiling. The history is dense (up to ${fmt(ceiling.maxLogsPerBlock)} logs in one block), ` +
          `so the range planner (starting at 8 blocks, doubling over the sparse deploy blocks) runs into it: viem refuses a response over 10 MB, the refused answer's size ` +
          `(anvil's Content-Length) sets the next span, and the fetcher asks one range at a time until one fits, then plans the rest from the density it saw (four in flight), ` +
          `each piece appended as it arrives (see bench/PROFILE.md). ` +
          `${pgRun.getLogs.refused} refused requests cost ${fmt(pgRun.getLogs.refusedSeconds, 2)} s of the ${fmt(pgRun.seconds, 2)} s: the node builds each refused response in full. ` +
          `${fmt(pgRun.appends.count)} appends took ${fmt(pgRun.appends.seconds, 2)} s (largest ${fmt(pgRun.appends.largest)} events). ` +
          `On a real chain (a few lottery logs per block) the first ranges fit.`,
      );
    if (pipeline.indexerStalls > 0 && production)
      notes.push(
        `The indexer app took ${fmt(pipeline.indexerCaughtUpSeconds, 2)} s to catch up against ${fmt(production.seconds, 2)} s for the same follower in-process: ` +
          `its stall watchdog (STALL_TIMEOUT_MS, default 60 s: no progress while behind the head) restarted the fetch ${fmt(pipeline.indexerStalls)} time(s). ` +
          `The fetcher reports every piece of a split range (bench/PROFILE.md), so a restart means one eth_getLogs call or one append took that long (the indexer logs the block it was at).`,
      );
    if (ponder.ran) {
      const ratio = ponder.seconds / pipeline.caughtUpSeconds;
      notes.push(
        `Versus Ponder: ${fmt(ratio, 2)}× (goal ≥ ${PONDER_GOAL_RATIO}×: ${ratio >= PONDER_GOAL_RATIO ? 'met' : `missed by ${fmt(PONDER_GOAL_RATIO - ratio, 2)}×`}). ` +
          `Both times include process start-up. The work differs: Ponder caches the raw logs, blocks and transactions in its ponder_sync schema and runs a handler per event; ` +
          `here the indexer writes every event to the event log (Kafka transactions) and the projector maintains the full read models (tickets, ticket outcomes, rounds, wallet stats, referral schemes, the raw events of the reorg window, with their serving indexes), ` +
          `where the Ponder project writes three narrow tables with two indexes; Ponder also stops at endBlock, with no realtime tail to walk.`,
      );
    }
    notes.push(...(ponder.ran ? ponder.notes : []));
    figures['machine_cores'] = machine.cores;
    figures['machine_ram_gb'] = machine.ramGb;

    load.stop();
    const loadByStage = load.summary();
    for (const [stage, value] of Object.entries(loadByStage)) figures[`load_${stage}`] = value;
    const report: Report = {
      machine,
      commit,
      mode,
      loadAtEnd: currentLoad(),
      loadByStage,
      sections,
      notes,
      figures,
    };
    const written = writeReport(report, options.outDir ? resolve(options.outDir) : __dirname);
    console.log('');
    for (const [key, value] of Object.entries(figures)) console.log(`${key.padEnd(40)} ${round(value, 3)}`);
    log(`wrote ${written.markdown} and ${written.json}`);
  } finally {
    load.stop();
    for (const l of logs) await l.close().catch(() => undefined);
    await history?.anvil.stop();
    await broker?.stop();
    if (database && !options.keep) await database.drop();
    else if (database) log(`kept database ${database.name}`);
  }
  // 7. after the rest has stopped: it measures the API with the machine to itself
  if (options.api) {
    log('Data API against a raw Fastify + pg server (bench:api)');
    await runApiBench(options);
  }
}

/** bench:api in a process of its own; it writes its block of RESULTS.md and the api_ figures itself. */
function runApiBench(options: BenchOptions): Promise<void> {
  const args = options.quick
    ? ['--tickets', '100000', '--duration', '3', '--warmup', '1']
    : ['--tickets', '1000000,10000000'];
  if (options.outDir) args.push('--out', resolve(options.outDir));
  // --expose-gc: the paced latency runs collect the bench's heap before they start (bench/api/load.ts)
  const child = spawn(process.execPath, ['--expose-gc', ...appNodeArgs('bench/api/main.ts'), ...args], {
    stdio: 'inherit',
  });
  return new Promise((resolvePromise, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolvePromise() : reject(new Error(`bench:api exited with ${signal ?? code}`)),
    );
  });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
