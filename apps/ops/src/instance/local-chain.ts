import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { abortable } from '@lottery/chain';
import {
  approveRandomTicketBuyer,
  deployLottery,
  simulateHistory,
  startAnvil,
  startLiveSimulation,
  type AnvilInstance,
  type LiveSimulation,
  type LotteryDeployment,
} from '@lottery/contracts';
import { freePort, ProgressReporter } from '@lottery/telemetry';
import type { Logger } from 'pino';
import { readState, writeState } from '../data-dir';
import { decodeDeployment, encodeDeployment } from './deployment-codec';

export interface LocalChainOptions {
  dir: string;
  host: string;
  /** Settled rounds the simulator writes before going live (first start only). */
  rounds: number;
  ticketsPerRound: number;
  purchaseEverySeconds: number;
  drawEverySeconds: number;
  live: boolean;
  seed: string;
  say: (line: string) => void;
  /** Where the history's progress goes when stderr is no terminal (a bar on one). */
  logger: Logger;
  /** Ctrl-C: a first start gives up its history at once (the transaction in flight is left behind). */
  signal: AbortSignal;
}

export interface LocalChain {
  rpcUrl: string;
  deployment: LotteryDeployment;
  /** True when this start deployed the lottery and wrote its history. */
  fresh: boolean;
  startLive(onActivity: (line: string) => void): Promise<void>;
  /** Stops the live simulation (the chain goes on): at once on Ctrl-C, before the apps are stopped. */
  stopLive(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * anvil with the local lottery. The first start deploys it (a drawing lasts `drawEverySeconds`) and
 * writes a seeded history whose chain clock starts in the past so it ends about now; anvil keeps its chain in
 * the data folder, so later starts reload it (blocks, logs and all) and only go live again.
 */
export async function startLocalChain(options: LocalChainOptions): Promise<LocalChain> {
  const state = readState(options.dir);
  const stateFile = join(options.dir, 'anvil-state.json');
  const fresh = !state.deployment;
  // A first start stopped before its history was written left a chain with no recorded deployment: a
  // half-deployed lottery, its clock past the history's. The history starts over on a new chain.
  if (fresh) rmSync(stateFile, { force: true });
  const port = await freePort(state.anvilPort ?? 8545);
  // Each history round lasts one drawing of chain time; the history then ends a minute before now.
  const historySpan = options.rounds * options.drawEverySeconds + 60;
  const anvil: AnvilInstance = await startAnvil({
    port,
    host: options.host,
    stateFile,
    gasLimit: 100_000_000n,
    ...(fresh ? { timestamp: Math.floor(Date.now() / 1000) - historySpan } : {}),
  });
  const rpcUrl = `http://127.0.0.1:${anvil.port}`;
  writeState({ anvilPort: anvil.port, anvilPid: anvil.pid }, options.dir);

  let deployment: LotteryDeployment;
  try {
    deployment = fresh
      ? await abortable(writeHistory(rpcUrl, options), options.signal)
      : decodeDeployment(state.deployment);
  } catch (error) {
    await anvil.stop();
    throw error;
  }

  let live: LiveSimulation | undefined;
  let liveStopped = false;
  const stopLive = async () => {
    liveStopped = true;
    await live?.stop();
  };
  return {
    rpcUrl,
    deployment,
    fresh,
    async startLive(onActivity) {
      if (!options.live || liveStopped) return;
      const started = await startLiveSimulation(rpcUrl, deployment, {
        // A seed per start: fresh wallets and picks, so no state of the previous run is needed.
        seed: `${options.seed}:live:${Date.now()}`,
        purchaseIntervalMs: options.purchaseEverySeconds * 1000,
        drawIntervalMs: options.drawEverySeconds * 1000,
        onActivity,
        onError: (error) => onActivity(`simulator: ${error.message.split('\n')[0]}`),
      });
      // stopped while it funded its wallets (the start went on to its cleanup): it never acts
      if (liveStopped) await started.stop();
      else live = started;
    },
    stopLive,
    async stop() {
      await stopLive();
      await anvil.stop();
    },
  };
}

/** Deploys the lottery, writes the seeded history and records the deployment (first start only). */
async function writeHistory(rpcUrl: string, options: LocalChainOptions): Promise<LotteryDeployment> {
  options.say(`deploying the local lottery and simulating ${options.rounds} rounds of history…`);
  const deployment = await deployLottery(rpcUrl, {
    config: { drawingDurationSeconds: BigInt(options.drawEverySeconds) },
  });
  await approveRandomTicketBuyer(rpcUrl, deployment);
  // a long history takes minutes (anvil mines each transaction): its progress and ETA are shown
  const progress = new ProgressReporter('history', 'rounds', 'tickets', options.logger).startingAt(0);
  let tickets = 0;
  const history = await simulateHistory(rpcUrl, deployment, {
    seed: options.seed,
    rounds: options.rounds,
    ticketsPerRound: options.ticketsPerRound,
    onRound: (rounds, stats) => {
      progress.update({ done: rounds, total: options.rounds, items: stats.tickets - tickets });
      tickets = stats.tickets;
    },
  });
  options.say(
    `history: ${history.settled.length} settled rounds, ${history.stats.tickets} tickets, ` +
      `up to block ${history.lastBlock}`,
  );
  // recorded once the history is whole: a start stopped before this writes it again (`fresh`)
  writeState({ deployment: encodeDeployment(deployment) }, options.dir);
  return deployment;
}
