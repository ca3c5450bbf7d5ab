/** docker/compose.yml read as the apps' services see it: the services built from the Dockerfile, with their environment. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from '../repo-root';
import { type AppRunner, pipelineReadyUrlsOf, type ReadyUrl, splitAtEntry } from './app-runner';
import { appOfEntry } from './deployable-apps';
import { listOf, mapOf, textOf, type YamlMap } from './yaml-values';

/** A compose service that runs one of the apps. */
export interface ComposeRunner extends AppRunner {
  service: string;
  definition: YamlMap;
}

export interface ComposeDeployment {
  /** Every service by name, YAML merge keys resolved. */
  services: YamlMap;
  /** The services built from the Dockerfile. */
  built: string[];
  runners: ComposeRunner[];
  readyUrls: ReadyUrl[];
}

const DEPLOYMENT_FILE = '/shared/deployment.env';

export function loadComposeDeployment(): ComposeDeployment {
  const composeFile = join(repoRoot(), 'docker', 'compose.yml');
  const services = mapOf(mapOf(parse(readFileSync(composeFile, 'utf8'), { merge: true }))['services']);
  const built = Object.keys(services).filter((name) => mapOf(services[name])['build'] !== undefined);
  const runners: ComposeRunner[] = built.flatMap((service) => {
    const definition = mapOf(services[service]);
    const env = composeEnvironment(definition, dirname(composeFile));
    const command = asArgv(definition['command']);
    // x-deployment-env: the command's first word names what the entry point exports from the deployment file
    if (asArgv(definition['entrypoint']).some((word) => word.includes(DEPLOYMENT_FILE))) {
      for (const name of (command.shift() ?? '').split('|')) env.set(name, `(from ${DEPLOYMENT_FILE})`);
    }
    const { nodeArgs, entry } = splitAtEntry(command);
    const app = appOfEntry(entry);
    return app ? [{ where: `compose service ${service}`, app, nodeArgs, env, service, definition }] : [];
  });
  // Compose services reach each other by service name.
  const readyUrls = runners.flatMap(pipelineReadyUrlsOf).map((url): ReadyUrl => {
    const runner = runners.find((r) => r.service === new URL(url).hostname);
    return { where: `PIPELINE_READY_URLS ${url}`, url, target: runner && { runner, url } };
  });
  return { services, built, runners, readyUrls };
}

/** A command, entrypoint or healthcheck test, in list or in shell form, as its words. */
export function asArgv(command: unknown): string[] {
  return Array.isArray(command) ? command.map(String) : typeof command === 'string' ? command.split(/\s+/) : [];
}

function composeEnvironment(service: YamlMap, composeDir: string): Map<string, string | undefined> {
  const env = new Map<string, string | undefined>();
  for (const file of listOf(service['env_file']).map((f) => (typeof f === 'string' ? f : String(mapOf(f)['path'])))) {
    for (const line of readFileSync(join(composeDir, file), 'utf8').split('\n')) {
      const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
      if (match) env.set(match[1], match[2]);
    }
  }
  const environment = service['environment'];
  if (Array.isArray(environment)) {
    for (const entry of environment.map(String)) {
      const [key, ...value] = entry.split('=');
      env.set(key, value.length > 0 ? value.join('=') : undefined);
    }
  } else {
    for (const [k, v] of Object.entries(mapOf(environment))) env.set(k, textOf(v));
  }
  return env;
}
