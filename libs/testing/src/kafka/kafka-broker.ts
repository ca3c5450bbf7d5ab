import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts } from '@lottery/telemetry';
import { Kafka, logLevel } from 'kafkajs';
import { hasExited, killOnParentExit, requireCommand, runCommand, stopChild } from '../child-process';
import { ensureKafkaJars } from './kafka-jars';
import { type KafkaServerLayout, kafkaLog4jProperties, kafkaServerProperties } from './kafka-server-config';

export interface KafkaBroker {
  brokers: string[];
  /** Stops the broker and deletes its data. */
  stop(): Promise<void>;
  /** Stops the broker and starts it again on the same ports and data, as after a crash or redeploy. */
  restart(): Promise<void>;
}

const STARTUP_TIMEOUT_MS = 90_000;
const SHUTDOWN_GRACE_MS = 10_000;
const JVM_OPTIONS = ['-Xmx512m', '-Xms128m', '-XX:+UseG1GC', '-Djava.awt.headless=true'];

/**
 * A real Apache Kafka 3.9 broker (single-node KRaft) run with the JDK on free ports and a temporary
 * data directory. Resolves once a kafkajs admin client can reach it.
 */
export async function startKafka(): Promise<KafkaBroker> {
  requireCommand(
    'java',
    '-version',
    'The tests run a real Kafka broker on the JDK: install Java 17+ (e.g. `apt-get install openjdk-17-jre-headless`).',
  );
  const jars = await ensureKafkaJars();
  const classpath = join(jars, '*');
  const workDir = mkdtempSync(join(tmpdir(), 'lottery-kafka-'));
  const removeWorkDir = (): void => {
    process.removeListener('exit', removeWorkDir);
    rmSync(workDir, { recursive: true, force: true });
  };
  // A run killed before stop() (Ctrl-C, a closed pipe) must not leave broker data in /tmp either.
  process.once('exit', removeWorkDir);
  const [brokerPort, controllerPort] = await freePorts(2);
  const layout: KafkaServerLayout = { brokerPort, controllerPort, dataDir: join(workDir, 'data') };
  const files = {
    properties: join(workDir, 'server.properties'),
    log4j: join(workDir, 'log4j.properties'),
    log: join(workDir, 'broker.log'),
  };
  writeFileSync(files.properties, kafkaServerProperties(layout));
  writeFileSync(files.log4j, kafkaLog4jProperties());
  const jvm = [...JVM_OPTIONS, `-Dlog4j.configuration=file:${files.log4j}`, '-cp', classpath];

  try {
    await runCommand('java', [
      ...jvm,
      'kafka.tools.StorageTool',
      'format',
      `--cluster-id=${clusterId()}`,
      '-c',
      files.properties,
    ]);
  } catch (error) {
    removeWorkDir();
    throw error;
  }

  const brokers = [`127.0.0.1:${layout.brokerPort}`];
  let child: ChildProcess | undefined;
  const launch = async (): Promise<void> => {
    const log = openSync(files.log, 'a');
    child = spawn('java', [...jvm, 'kafka.Kafka', files.properties], { stdio: ['ignore', log, log] });
    closeSync(log);
    killOnParentExit(child);
    await waitUntilReachable(brokers, child, files.log);
  };
  const halt = async (): Promise<void> => {
    if (child) await stopChild(child, SHUTDOWN_GRACE_MS);
  };

  try {
    await launch();
  } catch (error) {
    await halt();
    removeWorkDir();
    throw error;
  }
  return {
    brokers,
    restart: async () => {
      await halt();
      await launch();
    },
    stop: async () => {
      await halt();
      removeWorkDir();
    },
  };
}

/**
 * KRaft cluster ids are 16 random bytes in URL-safe base64 without padding, as `kafka-storage random-uuid`
 * prints. One may start with '-', hence `--cluster-id=<id>` above: as a separate argument it reads as an option.
 */
function clusterId(): string {
  return randomBytes(16).toString('base64url');
}

async function waitUntilReachable(brokers: string[], child: ChildProcess, logFile: string): Promise<void> {
  const kafka = new Kafka({ clientId: 'harness-probe', brokers, logLevel: logLevel.NOTHING, retry: { retries: 0 } });
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    if (hasExited(child)) throw brokerFailed(`the broker exited with ${child.exitCode ?? child.signalCode}`, logFile);
    const admin = kafka.admin();
    try {
      await admin.connect();
      await admin.describeCluster();
      break;
    } catch {
      if (Date.now() > deadline) throw brokerFailed(`not reachable after ${STARTUP_TIMEOUT_MS} ms`, logFile);
      await new Promise((resolve) => setTimeout(resolve, 250));
    } finally {
      await admin.disconnect();
    }
  }
  await warmUpCoordinators(brokers);
}

/**
 * The group and transaction coordinators load their internal topics on first use, and until then
 * clients get retriable "coordinator is loading" errors that kafkajs logs as ERROR. Touching both
 * here makes "started" mean ready for consumer groups and transactions, and keeps test output clean.
 */
async function warmUpCoordinators(brokers: string[]): Promise<void> {
  const kafka = new Kafka({ clientId: 'harness-warm-up', brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  const producer = kafka.producer({ transactionalId: 'harness-warm-up', idempotent: true, maxInFlightRequests: 1 });
  try {
    await admin.connect();
    await admin.describeGroups(['harness-warm-up']);
    await producer.connect();
  } finally {
    await producer.disconnect();
    await admin.disconnect();
  }
}

function brokerFailed(why: string, logFile: string): Error {
  const log = readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
  return new Error(`Kafka did not start: ${why}. Last lines of ${logFile}:\n${log}`);
}
