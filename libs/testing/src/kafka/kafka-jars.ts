import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { requireCommand, runCommand } from '../child-process';
import { repoRoot } from '../repo-root';

/**
 * The jars of a real Apache Kafka 3.9 broker, fetched from Maven Central by libs/testing/kafka/pom.xml
 * into .cache/kafka/libs (git-ignored) on first use and reused afterwards. Returns the directory.
 */
export async function ensureKafkaJars(): Promise<string> {
  const root = repoRoot();
  const libs = join(root, '.cache', 'kafka', 'libs');
  if (hasJars(libs)) return libs;

  requireCommand(
    'mvn',
    '-v',
    'Maven fetches the Kafka broker jars for the tests: install it (e.g. `apt-get install maven`), or put ' +
      'the runtime jars of libs/testing/kafka/pom.xml into .cache/kafka/libs.',
  );
  // Download next to the cache and rename into place, so an interrupted or concurrent fetch never
  // leaves a half-filled directory that later runs would take for a complete one.
  const staging = `${libs}.${process.pid}.tmp`;
  mkdirSync(staging, { recursive: true });
  try {
    await runCommand('mvn', [
      '-q',
      '-B',
      'dependency:copy-dependencies',
      '-f',
      join(root, 'libs', 'testing', 'kafka', 'pom.xml'),
      `-DoutputDirectory=${staging}`,
      '-DincludeScope=runtime',
    ]);
    try {
      renameSync(staging, libs);
    } catch (error) {
      if (!hasJars(libs)) throw error; // else a parallel run finished first: use its copy
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return libs;
}

function hasJars(dir: string): boolean {
  return existsSync(dir) && readdirSync(dir).some((file) => file.startsWith('kafka_2.13-'));
}
