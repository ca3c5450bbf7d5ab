/**
 * The deployment manifests against the apps: every environment variable a container gets is one its
 * app reads, every probe asks a route the app serves on the port it listens on, and the Kubernetes
 * shape holds (one indexer, Recreate; the HPA and the PDB on the API). Parses every manifest under
 * k8s/ and docker/compose.yml; needs no cluster and no Docker.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { appByEntry, appByName, type DeployableApp, DEPLOYABLE_APPS, listenPort, REPO_ROOT } from './deploy-apps';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : String(v));

/** Variables that must have one value wherever they are set: the apps share what they name. */
const SHARED_VALUES = [
  'CHAIN_ID',
  'DATABASE_URL',
  'READ_SCHEMA',
  'EVENT_LOG',
  'EVENT_LOG_SCHEMA',
  'KAFKA_BROKERS',
  'KAFKA_TOPIC_PREFIX',
];

/** One container (or compose service) running one of the apps, with its environment resolved. */
interface Runner {
  where: string;
  app: DeployableApp;
  /** name → value (undefined when not known statically, e.g. a fieldRef). */
  env: Map<string, string | undefined>;
  problems: string[];
}

async function routesOf(app: DeployableApp): Promise<ReadonlySet<string>> {
  return app.http ? app.http.routes() : new Set();
}

/** A URL some runner must serve: the host names the runner, the port its listen port, the path a route. */
async function checkUrlServed(url: string, target: Runner | undefined, where: string): Promise<string[]> {
  if (!target) return [`${where}: ${url} names no app container`];
  if (!target.app.http) return [`${where}: ${url} names ${target.app.name}, which serves no HTTP`];
  const { port, pathname } = new URL(url);
  const problems: string[] = [];
  const expected = listenPort(target.app, Object.fromEntries(target.env));
  if (Number(port || 80) !== expected) problems.push(`${where}: ${url} — ${target.app.name} listens on ${expected}`);
  if (!(await routesOf(target.app)).has(pathname))
    problems.push(`${where}: ${url} — ${target.app.name} has no ${pathname}`);
  return problems;
}

function envProblems(runner: Runner): string[] {
  return [...runner.env.keys()]
    .filter((key) => !runner.app.envKeys.has(key))
    .map((key) => `${runner.where}: ${key} is not a variable ${runner.app.name} knows`);
}

function sharedValueProblems(runners: Runner[]): string[] {
  return SHARED_VALUES.flatMap((key) => {
    const values = new Map<string, string[]>();
    for (const r of runners) {
      const value = r.env.get(key);
      if (value !== undefined) values.set(value, [...(values.get(value) ?? []), r.where]);
    }
    return values.size > 1
      ? [`${key} differs: ${[...values].map(([v, w]) => `${v} in ${w.join(', ')}`).join('; ')}`]
      : [];
  });
}

// ---------------------------------------------------------------------------------------------- k8s

const K8S_DIR = join(REPO_ROOT, 'k8s');

interface Manifest {
  file: string;
  kind: string;
  name: string;
  doc: Json;
}

function yamlFilesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFilesUnder(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

function loadManifests(): { manifests: Manifest[]; kustomizations: Manifest[] } {
  const all = yamlFilesUnder(K8S_DIR).flatMap((path) =>
    parseAllDocuments(readFileSync(path, 'utf8')).flatMap((document) => {
      if (document.errors.length > 0) throw new Error(`${path}: ${document.errors[0].message}`);
      const doc = obj(document.toJS());
      if (Object.keys(doc).length === 0) return [];
      const file = relative(REPO_ROOT, path);
      return [{ file, kind: String(doc['kind']), name: String(obj(doc['metadata'])['name']), doc }];
    }),
  );
  return {
    manifests: all.filter((m) => m.kind !== 'Kustomization'),
    kustomizations: all.filter((m) => m.kind === 'Kustomization'),
  };
}

const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'];

function podSpecOf(m: Manifest): Json {
  const spec = obj(m.doc['spec']);
  const template =
    m.kind === 'CronJob' ? obj(obj(obj(spec['jobTemplate'])['spec'])['template']) : obj(spec['template']);
  return obj(template['spec']);
}

function podLabelsOf(m: Manifest): Json {
  return obj(obj(obj(obj(m.doc['spec'])['template'])['metadata'])['labels']);
}

function selects(selector: Json, labels: Json): boolean {
  const entries = Object.entries(selector);
  return entries.length > 0 && entries.every(([k, v]) => labels[k] === v);
}

function k8sRunners(manifests: Manifest[]): { runners: Runner[]; unknown: string[] } {
  const find = (kind: string, name: string) => manifests.find((m) => m.kind === kind && m.name === name);
  const dataOf = (m: Manifest): Json => ({ ...obj(m.doc['data']), ...obj(m.doc['stringData']) });
  const runners: Runner[] = [];
  const unknown: string[] = [];
  for (const m of manifests.filter((w) => WORKLOAD_KINDS.includes(w.kind))) {
    const pod = podSpecOf(m);
    for (const c of [...arr(pod['initContainers']), ...arr(pod['containers'])].map(obj)) {
      const where = `${m.file} ${m.kind}/${m.name} container ${String(c['name'])}`;
      const argv = [...arr(c['command']), ...arr(c['args'])].map(String);
      const app = appByEntry(argv.find((a) => a.endsWith('.ts')));
      if (!app) {
        unknown.push(`${where}: runs ${JSON.stringify(argv)}, not an entry point of any app`);
        continue;
      }
      const runner: Runner = { where, app, env: new Map(), problems: [] };
      for (const source of arr(c['envFrom']).map(obj)) {
        const ref = obj(source['configMapRef'] ?? source['secretRef']);
        const kind = source['configMapRef'] ? 'ConfigMap' : 'Secret';
        const target = find(kind, String(ref['name']));
        if (!target) {
          runner.problems.push(`${where}: envFrom ${kind}/${String(ref['name'])} is not in k8s/`);
          continue;
        }
        for (const [k, v] of Object.entries(dataOf(target)))
          runner.env.set(`${str(source['prefix']) ?? ''}${k}`, str(v));
      }
      for (const e of arr(c['env']).map(obj)) {
        const name = String(e['name']);
        const from = obj(e['valueFrom']);
        const keyRef = obj(from['configMapKeyRef'] ?? from['secretKeyRef']);
        if (Object.keys(keyRef).length > 0) {
          const kind = from['configMapKeyRef'] ? 'ConfigMap' : 'Secret';
          const target = find(kind, String(keyRef['name']));
          const data = target ? dataOf(target) : {};
          if (!(String(keyRef['key']) in data)) {
            runner.problems.push(
              `${where}: ${name} refers to ${kind}/${String(keyRef['name'])} key ${String(keyRef['key'])}, which is not in k8s/`,
            );
          }
          runner.env.set(name, str(data[String(keyRef['key'])]));
        } else {
          runner.env.set(name, str(e['value']));
        }
      }
      runners.push(runner);
    }
  }
  return { runners, unknown };
}

describe('Kubernetes manifests (k8s/)', () => {
  const { manifests, kustomizations } = loadManifests();
  const { runners, unknown } = k8sRunners(manifests);
  const deployments = manifests.filter((m) => m.kind === 'Deployment');
  const deploymentRunning = (name: string) =>
    deployments.filter((d) => runners.some((r) => r.app.name === name && r.where.includes(` Deployment/${d.name} `)));

  it('parses, and every kustomization lists every manifest beside it', () => {
    expect(manifests.length).toBeGreaterThan(0);
    expect(kustomizations.length).toBeGreaterThan(0);
    for (const k of kustomizations) {
      const dir = dirname(join(REPO_ROOT, k.file));
      const listed = arr(k.doc['resources']).map(String).sort();
      const present = readdirSync(dir)
        .filter((f) => /\.ya?ml$/.test(f) && !/^kustomization\.ya?ml$/.test(f))
        .sort();
      expect({ kustomization: k.file, resources: listed }).toEqual({ kustomization: k.file, resources: present });
    }
  });

  it('runs only entry points of the apps', () => {
    expect(unknown).toEqual([]);
    expect(new Set(runners.map((r) => r.app.name))).toEqual(new Set(['indexer', 'projector', 'api', 'migrate']));
    for (const r of runners) expect(existsSync(join(REPO_ROOT, r.app.entry))).toBe(true);
  });

  it('gives each container only variables its app knows, from ConfigMaps and Secrets that exist', () => {
    expect(runners.flatMap((r) => [...r.problems, ...envProblems(r)])).toEqual([]);
  });

  it('gives variables the apps share one value', () => {
    expect(sharedValueProblems(runners)).toEqual([]);
  });

  it('probes real routes on the port each app listens on, and every long-running app has both probes', async () => {
    const problems: string[] = [];
    for (const r of runners) {
      const container = findContainer(manifests, r);
      const isService = !r.where.includes(' Job/') && !r.where.includes(' CronJob/');
      for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
        const http = obj(obj(container[probe])['httpGet']);
        if (Object.keys(obj(container[probe])).length === 0) {
          if (isService && probe !== 'startupProbe') problems.push(`${r.where}: no ${probe}`);
          continue;
        }
        if (Object.keys(http).length === 0) {
          problems.push(`${r.where}: ${probe} is not an httpGet`);
          continue;
        }
        const port = resolvePort(container, http['port']);
        if (port === undefined) {
          problems.push(`${r.where}: ${probe} port ${String(http['port'])} is not a container port`);
          continue;
        }
        problems.push(...(await checkUrlServed(`http://pod:${port}${String(http['path'])}`, r, `${r.where} ${probe}`)));
      }
    }
    expect(problems).toEqual([]);
  });

  it('declares container ports the apps listen on', () => {
    const problems = runners
      .filter((r) => r.app.http)
      .flatMap((r) => {
        const ports = arr(findContainer(manifests, r)['ports']).map((p) => Number(obj(p)['containerPort']));
        const expected = listenPort(r.app, Object.fromEntries(r.env));
        return ports.includes(expected)
          ? []
          : [`${r.where}: ${r.app.name} listens on ${expected}, ports are ${ports.join(', ')}`];
      });
    expect(problems).toEqual([]);
  });

  it('points PIPELINE_READY_URLS, when set, at the readiness of real Services', async () => {
    const problems: string[] = [];
    for (const r of runners) {
      for (const url of (r.env.get('PIPELINE_READY_URLS') ?? '').split(',').filter(Boolean)) {
        const service = manifests.find((m) => m.kind === 'Service' && m.name === new URL(url).hostname.split('.')[0]);
        const target = service && backingRunner(manifests, runners, service, Number(new URL(url).port || 80));
        problems.push(
          ...(await checkUrlServed(target?.url(url) ?? url, target?.runner, `${r.where} PIPELINE_READY_URLS`)),
        );
      }
    }
    expect(problems).toEqual([]);
  });

  it('backs every Service with pods that have its target port', () => {
    const problems = manifests
      .filter((m) => m.kind === 'Service')
      .flatMap((service) => {
        const selector = obj(obj(service.doc['spec'])['selector']);
        const pods = deployments.filter((d) => selects(selector, podLabelsOf(d)));
        if (pods.length === 0) return [`Service/${service.name} selects no Deployment's pods`];
        return arr(obj(service.doc['spec'])['ports']).flatMap((p) => {
          const targetPort = obj(p)['targetPort'] ?? obj(p)['port'];
          const served = pods.some((d) => arr(podSpecOf(d)['containers']).some((c) => resolvePort(obj(c), targetPort)));
          return served ? [] : [`Service/${service.name}: no selected container has port ${String(targetPort)}`];
        });
      });
    expect(problems).toEqual([]);
  });

  it('runs exactly one indexer and one projector, replaced with Recreate', () => {
    for (const app of ['indexer', 'projector']) {
      const running = deploymentRunning(app);
      expect(running.map((d) => d.name)).toHaveLength(1);
      const spec = obj(running[0].doc['spec']);
      expect({ app, replicas: spec['replicas'], strategy: obj(spec['strategy'])['type'] }).toEqual({
        app,
        replicas: 1,
        strategy: 'Recreate',
      });
    }
  });

  it('scales the API Deployment with an HPA that owns its replica count', () => {
    const [api] = deploymentRunning('api');
    expect(api).toBeDefined();
    const hpas = manifests.filter((m) => m.kind === 'HorizontalPodAutoscaler');
    expect(hpas.map((h) => obj(obj(h.doc['spec'])['scaleTargetRef']))).toEqual([
      { apiVersion: 'apps/v1', kind: 'Deployment', name: api.name },
    ]);
    const spec = obj(hpas[0].doc['spec']);
    expect(Number(spec['minReplicas'])).toBeGreaterThanOrEqual(2);
    expect(Number(spec['maxReplicas'])).toBeGreaterThanOrEqual(Number(spec['minReplicas']));
    // A `replicas` field would reset the HPA's choice on every apply.
    expect(obj(api.doc['spec'])['replicas']).toBeUndefined();
  });

  it('protects the API pods, and only them, with a PodDisruptionBudget that still lets a node drain', () => {
    const [api] = deploymentRunning('api');
    const pdbs = manifests.filter((m) => m.kind === 'PodDisruptionBudget');
    expect(pdbs).toHaveLength(1);
    const spec = obj(pdbs[0].doc['spec']);
    const selector = obj(obj(spec['selector'])['matchLabels']);
    expect(deployments.filter((d) => selects(selector, podLabelsOf(d))).map((d) => d.name)).toEqual([api.name]);
    const hpa = manifests.find((m) => m.kind === 'HorizontalPodAutoscaler');
    expect(Number(spec['minAvailable'])).toBeLessThan(Number(obj(hpa?.doc['spec'])['minReplicas']));
  });

  it('migrates with a Job running the read-model migrations', () => {
    expect(runners.filter((r) => r.app.name === 'migrate' && r.where.includes(' Job/'))).toHaveLength(1);
  });
});

function findContainer(manifests: Manifest[], runner: Runner): Json {
  for (const m of manifests) {
    for (const c of [...arr(podSpecOf(m)['initContainers']), ...arr(podSpecOf(m)['containers'])].map(obj)) {
      if (runner.where === `${m.file} ${m.kind}/${m.name} container ${String(c['name'])}`) return c;
    }
  }
  throw new Error(`no container for ${runner.where}`);
}

/** A probe or Service port (a name or a number) as the container port it means, if the container has it. */
function resolvePort(container: Json, port: unknown): number | undefined {
  const ports = arr(container['ports']).map(obj);
  const named = ports.find((p) => p['name'] === port);
  if (named) return Number(named['containerPort']);
  return ports.some((p) => Number(p['containerPort']) === Number(port)) ? Number(port) : undefined;
}

/** The runner behind a Service port, and the URL rewritten to its container port. */
function backingRunner(
  manifests: Manifest[],
  runners: Runner[],
  service: Manifest,
  servicePort: number,
): { runner: Runner; url: (url: string) => string } | undefined {
  const spec = obj(service.doc['spec']);
  const port = arr(spec['ports'])
    .map(obj)
    .find((p) => Number(p['port']) === servicePort);
  if (!port) return undefined;
  const selector = obj(spec['selector']);
  for (const r of runners) {
    const m = manifests.find((w) => r.where.startsWith(`${w.file} ${w.kind}/${w.name} `));
    if (!m || m.kind !== 'Deployment' || !selects(selector, podLabelsOf(m))) continue;
    const containerPort = resolvePort(findContainer(manifests, r), port['targetPort'] ?? port['port']);
    if (containerPort === undefined) continue;
    return {
      runner: r,
      url: (url) => {
        const u = new URL(url);
        u.port = String(containerPort);
        return u.toString();
      },
    };
  }
  return undefined;
}

// ------------------------------------------------------------------------------------------ compose

const COMPOSE_FILE = join(REPO_ROOT, 'docker', 'compose.yml');

function composeEnvironment(service: Json): Map<string, string | undefined> {
  const env = new Map<string, string | undefined>();
  for (const file of arr(service['env_file']).map((f) => (typeof f === 'string' ? f : String(obj(f)['path'])))) {
    for (const line of readFileSync(join(dirname(COMPOSE_FILE), file), 'utf8').split('\n')) {
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
    for (const [k, v] of Object.entries(obj(environment))) env.set(k, str(v));
  }
  return env;
}

function asArgv(command: unknown): string[] {
  return Array.isArray(command) ? command.map(String) : typeof command === 'string' ? command.split(/\s+/) : [];
}

describe('docker/compose.yml', () => {
  const compose = obj(parse(readFileSync(COMPOSE_FILE, 'utf8'), { merge: true }));
  const services = obj(compose['services']);
  const built = Object.entries(services).filter(([, s]) => obj(s)['build'] !== undefined);
  const runners: Runner[] = built.flatMap(([name, s]) => {
    const service = obj(s);
    const app = appByEntry(asArgv(service['command']).find((a) => a.endsWith('.ts')));
    return app ? [{ where: `compose service ${name}`, app, env: composeEnvironment(service), problems: [] }] : [];
  });
  const runnerOf = (service: string) => runners.find((r) => r.where === `compose service ${service}`);

  it('runs an app entry point in every service built from the Dockerfile', () => {
    expect(built.map(([name]) => name).filter((name) => !runnerOf(name))).toEqual([]);
    expect(new Set(runners.map((r) => r.app.name))).toEqual(new Set(DEPLOYABLE_APPS.map((a) => a.name)));
  });

  it('gives each service only variables its app knows', () => {
    expect(runners.flatMap(envProblems)).toEqual([]);
  });

  it('gives variables the apps share one value', () => {
    expect(sharedValueProblems(runners)).toEqual([]);
  });

  it('health-checks real routes on the port each app listens on', async () => {
    const problems: string[] = [];
    for (const r of runners.filter((runner) => runner.app.http)) {
      const service = obj(services[r.where.replace('compose service ', '')]);
      const test = asArgv(obj(service['healthcheck'])['test']).join(' ');
      const urls = test.match(/https?:\/\/(?:127\.0\.0\.1|localhost)(?::\d+)?\/[^'"\s)]*/g) ?? [];
      if (urls.length === 0) problems.push(`${r.where}: no HTTP health check`);
      for (const url of urls) problems.push(...(await checkUrlServed(url, r, `${r.where} healthcheck`)));
    }
    expect(problems).toEqual([]);
  });

  it('points PIPELINE_READY_URLS at the readiness of the indexer and projector services', async () => {
    const problems: string[] = [];
    const urls = runners.flatMap((r) => (r.env.get('PIPELINE_READY_URLS') ?? '').split(',').filter(Boolean));
    for (const url of urls) {
      problems.push(...(await checkUrlServed(url, runnerOf(new URL(url).hostname), `PIPELINE_READY_URLS ${url}`)));
    }
    expect(problems).toEqual([]);
    expect(urls.map((u) => runnerOf(new URL(u).hostname)?.app.name).sort()).toEqual(['indexer', 'projector']);
  });

  it('waits only on conditions the services can meet', () => {
    const problems = Object.entries(services).flatMap(([name, s]) =>
      Object.entries(obj(obj(s)['depends_on'])).flatMap(([dependency, d]) => {
        const target = services[dependency];
        const condition = obj(d)['condition'] ?? 'service_started';
        if (target === undefined) return [`${name} depends on unknown ${dependency}`];
        if (condition === 'service_healthy' && !obj(target)['healthcheck']) {
          return [`${name} waits for ${dependency} to be healthy; it has no healthcheck`];
        }
        if (condition === 'service_completed_successfully' && obj(target)['restart'] !== 'no') {
          return [`${name} waits for ${dependency} to complete; it restarts (${String(obj(target)['restart'])})`];
        }
        return [];
      }),
    );
    expect(problems).toEqual([]);
  });

  it('sources the deployment file the chain service writes, from a volume both mount', () => {
    const chain = Object.entries(services).find(([, s]) => asArgv(obj(s)['command']).includes('--chain-only'));
    expect(chain).toBeDefined();
    const argv = asArgv(obj(chain?.[1])['command']);
    const written = argv[argv.indexOf('--deployment-env') + 1];
    const volumeOf = (s: unknown, path: string) =>
      arr(obj(s)['volumes'])
        .map(String)
        .find((v) => path.startsWith(`${v.split(':')[1]}/`))
        ?.split(':')[0];
    const readers = Object.entries(services).filter(([, s]) =>
      asArgv(obj(s)['entrypoint']).join(' ').includes('deployment.env'),
    );
    expect(readers.length).toBeGreaterThan(0);
    for (const [name, s] of readers) {
      expect({ name, sources: asArgv(obj(s)['entrypoint']).join(' ').includes(`. ${written};`) }).toEqual({
        name,
        sources: true,
      });
      expect({ name, volume: volumeOf(s, written) }).toEqual({ name, volume: volumeOf(chain?.[1], written) });
      expect({ name, waits: obj(obj(obj(s)['depends_on'])[chain?.[0] ?? ''])['condition'] }).toEqual({
        name,
        waits: 'service_healthy',
      });
    }
  });
});

describe('the deploy checks themselves', () => {
  it('refuse a variable an app does not know', () => {
    const runner: Runner = {
      where: 'test',
      app: appByName('indexer'),
      env: new Map([
        ['RPC_URL', 'http://x'],
        ['INDEXER_TYPO', '1'],
      ]),
      problems: [],
    };
    expect(envProblems(runner)).toEqual(['test: INDEXER_TYPO is not a variable indexer knows']);
  });

  it('know each app serves its probes', async () => {
    expect(await routesOf(appByName('indexer'))).toEqual(new Set(['/metrics', '/health/live', '/health/ready']));
    expect(await routesOf(appByName('api'))).toEqual(new Set(['/health/live', '/health/ready']));
  });
});
