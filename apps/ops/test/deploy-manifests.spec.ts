/**
 * The deployment manifests as a whole: which container or compose service runs which app, that the apps
 * share values they both name, and the Kubernetes shape (one indexer, Recreate; the HPA and the PDB on the
 * API); and the two entry points without an app project of their own, the read-model migrations and `ops
 * start --chain-only`, against the manifests. The indexer, the projector and the API check their own
 * variables and routes against the same manifests in their test/deployment-config.spec.ts (apps never
 * import apps). Parses every manifest under k8s/ and docker/compose.yml; needs no cluster and no Docker.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  APP_NAMES,
  appOfEntry,
  type AppRunner,
  asArgv,
  DEPLOYABLE_ENTRIES,
  describeAppDeployment,
  envReadsIn,
  listOf,
  loadComposeDeployment,
  loadK8sDeployment,
  mapOf,
  podLabelsOf,
  podSpecOf,
  resolvePort,
  selectorMatches,
  sourcesUnder,
  splitAtEntry,
  type YamlMap,
} from '@lottery/testing';
import { APP_NODE_FLAGS } from '@lottery/telemetry';
import { deploymentEnvFile } from '../src/instance/deployment-env-file';

const REPO_ROOT = join(__dirname, '..', '..', '..');

/** Variables that must have one value wherever they are set: the apps share what they name. */
const SHARED_VALUES = [
  'CHAIN_ID',
  'DATABASE_URL',
  'READ_SCHEMA',
  'EVENT_LOG',
  'EVENT_LOG_SCHEMA',
  'KAFKA_BROKERS',
  'KAFKA_TOPIC_PREFIX',
  'KAFKA_REPLICATION_FACTOR',
  'KAFKA_MIN_INSYNC_REPLICAS',
];

/**
 * Each app container gets its V8 flags (APP_NODE_FLAGS, as `npm start` gives them) on node's command line
 * before the entry point, and only those; never in NODE_OPTIONS, which refuses some of them.
 */
function nodeFlagProblems(runners: AppRunner[]): string[] {
  return runners.flatMap((r) => {
    const expected = (APP_NODE_FLAGS[r.app] ?? []).join(' ') || 'none';
    const actual = r.nodeArgs.join(' ') || 'none';
    return [
      ...(actual === expected ? [] : [`${r.where}: runs node with ${actual}, ${r.app}'s flags are ${expected}`]),
      ...(r.env.has('NODE_OPTIONS') ? [`${r.where}: sets NODE_OPTIONS; the app's flags go on the command line`] : []),
    ];
  });
}

function sharedValueProblems(runners: AppRunner[]): string[] {
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

// No schema for these two: their variables are the ones their sources read.
describeAppDeployment({ name: 'migrate', envKeys: envReadsIn([join(REPO_ROOT, DEPLOYABLE_ENTRIES.migrate)]) });
describeAppDeployment({ name: 'ops', envKeys: envReadsIn(sourcesUnder(join(REPO_ROOT, 'apps/ops/src'))) });

describe('Kubernetes manifests (k8s/)', () => {
  const { manifests, kustomizations, runners, unknown, readyUrls } = loadK8sDeployment();
  const deployments = manifests.filter((m) => m.kind === 'Deployment');
  const deploymentRunning = (name: string) =>
    deployments.filter((d) => runners.some((r) => r.app === name && r.workload === d));

  it('parses, and every kustomization lists every manifest beside it', () => {
    expect(manifests.length).toBeGreaterThan(0);
    expect(kustomizations.length).toBeGreaterThan(0);
    for (const k of kustomizations) {
      const dir = dirname(join(REPO_ROOT, k.file));
      const listed = listOf(k.doc['resources']).map(String).sort();
      const present = readdirSync(dir)
        .filter((f) => /\.ya?ml$/.test(f) && !/^kustomization\.ya?ml$/.test(f))
        .sort();
      expect({ kustomization: k.file, resources: listed }).toEqual({ kustomization: k.file, resources: present });
    }
  });

  it('runs only entry points of the apps', () => {
    expect(unknown).toEqual([]);
    expect(new Set(runners.map((r) => r.app))).toEqual(new Set(['indexer', 'projector', 'api', 'migrate']));
    for (const r of runners) expect(existsSync(join(REPO_ROOT, DEPLOYABLE_ENTRIES[r.app]))).toBe(true);
  });

  it('gives containers variables only from ConfigMaps and Secrets that exist', () => {
    expect(runners.flatMap((r) => r.problems)).toEqual([]);
  });

  it('gives variables the apps share one value', () => {
    expect(sharedValueProblems(runners)).toEqual([]);
  });

  it('runs each app with its V8 flags on the command line, the other entry points with none', () => {
    expect(nodeFlagProblems(runners)).toEqual([]);
  });

  it('points PIPELINE_READY_URLS, when set, at Services backed by an app container', () => {
    expect(readyUrls.filter((u) => !u.target).map((u) => `${u.where}: ${u.url} names no app container`)).toEqual([]);
  });

  it('backs every Service with pods that have its target port', () => {
    const problems = manifests
      .filter((m) => m.kind === 'Service')
      .flatMap((service) => {
        const selector = mapOf(mapOf(service.doc['spec'])['selector']);
        const pods = deployments.filter((d) => selectorMatches(selector, podLabelsOf(d)));
        if (pods.length === 0) return [`Service/${service.name} selects no Deployment's pods`];
        return listOf(mapOf(service.doc['spec'])['ports']).flatMap((p) => {
          const targetPort = mapOf(p)['targetPort'] ?? mapOf(p)['port'];
          const served = pods.some((d) =>
            listOf(podSpecOf(d)['containers']).some((c) => resolvePort(mapOf(c), targetPort)),
          );
          return served ? [] : [`Service/${service.name}: no selected container has port ${String(targetPort)}`];
        });
      });
    expect(problems).toEqual([]);
  });

  it('runs exactly one indexer and one projector, replaced with Recreate', () => {
    for (const app of ['indexer', 'projector']) {
      const running = deploymentRunning(app);
      expect(running.map((d) => d.name)).toHaveLength(1);
      const spec = mapOf(running[0].doc['spec']);
      expect({ app, replicas: spec['replicas'], strategy: mapOf(spec['strategy'])['type'] }).toEqual({
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
    expect(hpas.map((h) => mapOf(mapOf(h.doc['spec'])['scaleTargetRef']))).toEqual([
      { apiVersion: 'apps/v1', kind: 'Deployment', name: api.name },
    ]);
    const spec = mapOf(hpas[0].doc['spec']);
    expect(Number(spec['minReplicas'])).toBeGreaterThanOrEqual(2);
    expect(Number(spec['maxReplicas'])).toBeGreaterThanOrEqual(Number(spec['minReplicas']));
    // A `replicas` field would reset the HPA's choice on every apply.
    expect(mapOf(api.doc['spec'])['replicas']).toBeUndefined();
  });

  it('protects the API pods, and only them, with a PodDisruptionBudget that still lets a node drain', () => {
    const [api] = deploymentRunning('api');
    const pdbs = manifests.filter((m) => m.kind === 'PodDisruptionBudget');
    expect(pdbs).toHaveLength(1);
    const spec = mapOf(pdbs[0].doc['spec']);
    const selector = mapOf(mapOf(spec['selector'])['matchLabels']);
    expect(deployments.filter((d) => selectorMatches(selector, podLabelsOf(d))).map((d) => d.name)).toEqual([api.name]);
    const hpa = manifests.find((m) => m.kind === 'HorizontalPodAutoscaler');
    expect(Number(spec['minAvailable'])).toBeLessThan(Number(mapOf(hpa?.doc['spec'])['minReplicas']));
  });

  it('hardens every pod: non-root, RuntimeDefault seccomp, read-only root filesystem (a writable /tmp), no privilege escalation or capabilities, no service account token', () => {
    const workloads = manifests.filter((m) => m.kind === 'Deployment' || m.kind === 'Job');
    expect(workloads.length).toBeGreaterThanOrEqual(4);
    const problems = workloads.flatMap((w) => {
      const pod = podSpecOf(w);
      const podSecurity = mapOf(pod['securityContext']);
      const emptyDirs = listOf(pod['volumes'])
        .map(mapOf)
        .filter((v) => v['emptyDir'] !== undefined)
        .map((v) => v['name']);
      const where = `${w.kind}/${w.name}`;
      return [
        ...(pod['automountServiceAccountToken'] === false ? [] : [`${where}: mounts a service account token`]),
        ...(podSecurity['runAsNonRoot'] === true ? [] : [`${where}: may run as root`]),
        ...(mapOf(podSecurity['seccompProfile'])['type'] === 'RuntimeDefault' ? [] : [`${where}: no seccomp profile`]),
        ...listOf(pod['containers']).flatMap((c) => {
          const container = mapOf(c);
          const security = mapOf(container['securityContext']);
          const tmp = listOf(container['volumeMounts'])
            .map(mapOf)
            .find((m) => m['mountPath'] === '/tmp');
          return [
            ...(security['readOnlyRootFilesystem'] === true ? [] : [`${where}: writable root filesystem`]),
            ...(security['allowPrivilegeEscalation'] === false ? [] : [`${where}: may escalate privileges`]),
            ...(JSON.stringify(mapOf(security['capabilities'])['drop']) === '["ALL"]'
              ? []
              : [`${where}: keeps capabilities`]),
            ...(tmp && emptyDirs.includes(tmp['name']) ? [] : [`${where}: no writable /tmp (an emptyDir)`]),
          ];
        }),
      ];
    });
    expect(problems).toEqual([]);
  });

  it("admits ingress only to the API's port from anywhere, and to the indexer's and projector's metrics ports from the namespace", () => {
    const policies = manifests.filter((m) => m.kind === 'NetworkPolicy').map((m) => mapOf(m.doc['spec']));
    const selects = (selector: YamlMap, labels: YamlMap) =>
      Object.entries(mapOf(selector['matchLabels'])).every(([k, v]) => labels[k] === v) &&
      listOf(selector['matchExpressions'])
        .map(mapOf)
        .every((e) => e['operator'] === 'In' && listOf(e['values']).includes(labels[String(e['key'])]));
    const ingressOf = (d: (typeof deployments)[number]) => {
      const container = mapOf(listOf(podSpecOf(d)['containers'])[0]);
      const applying = policies.filter(
        (p) => listOf(p['policyTypes']).includes('Ingress') && selects(mapOf(p['podSelector']), podLabelsOf(d)),
      );
      return {
        // a policy with no rule denies whatever no other policy admits
        denyingTheRest: applying.some((p) => listOf(p['ingress']).length === 0),
        admitted: applying.flatMap((p) =>
          listOf(p['ingress'])
            .map(mapOf)
            .map((rule) => ({
              from: rule['from'] === undefined ? 'anywhere' : JSON.stringify(rule['from']),
              ports: listOf(rule['ports']).map((port) => resolvePort(container, mapOf(port)['port'])),
            })),
        ),
      };
    };
    expect(Object.fromEntries(deployments.map((d) => [d.name, ingressOf(d)]))).toEqual({
      api: { denyingTheRest: true, admitted: [{ from: 'anywhere', ports: [3000] }] },
      indexer: { denyingTheRest: true, admitted: [{ from: '[{"podSelector":{}}]', ports: [9464] }] },
      projector: { denyingTheRest: true, admitted: [{ from: '[{"podSelector":{}}]', ports: [9464] }] },
    });
  });

  it('migrates with a Job running the read-model migrations', () => {
    expect(runners.filter((r) => r.app === 'migrate' && r.workload.kind === 'Job')).toHaveLength(1);
  });
});

describe('docker/compose.yml', () => {
  const { services, built, runners, readyUrls } = loadComposeDeployment();

  it('runs an app entry point in every service built from the Dockerfile', () => {
    expect(built.filter((name) => !runners.some((r) => r.service === name))).toEqual([]);
    expect(new Set(runners.map((r) => r.app))).toEqual(new Set(APP_NAMES));
  });

  it('gives variables the apps share one value', () => {
    expect(sharedValueProblems(runners)).toEqual([]);
  });

  it('runs each app with its V8 flags on the command line, the other entry points with none', () => {
    expect(nodeFlagProblems(runners)).toEqual([]);
  });

  it('points PIPELINE_READY_URLS at the indexer and projector services', () => {
    expect(readyUrls.filter((u) => !u.target).map((u) => `${u.where}: ${u.url} names no app container`)).toEqual([]);
    expect(readyUrls.map((u) => u.target?.runner.app).sort()).toEqual(['indexer', 'projector']);
  });

  it('waits only on conditions the services can meet', () => {
    const problems = Object.entries(services).flatMap(([name, s]) =>
      Object.entries(mapOf(mapOf(s)['depends_on'])).flatMap(([dependency, d]) => {
        const target = services[dependency];
        const condition = mapOf(d)['condition'] ?? 'service_started';
        if (target === undefined) return [`${name} depends on unknown ${dependency}`];
        if (condition === 'service_healthy' && !mapOf(target)['healthcheck']) {
          return [`${name} waits for ${dependency} to be healthy; it has no healthcheck`];
        }
        if (condition === 'service_completed_successfully' && mapOf(target)['restart'] !== 'no') {
          return [`${name} waits for ${dependency} to complete; it restarts (${String(mapOf(target)['restart'])})`];
        }
        return [];
      }),
    );
    expect(problems).toEqual([]);
  });

  it('sources the deployment file the chain service writes, from a volume both mount', () => {
    const chain = Object.entries(services).find(([, s]) => asArgv(mapOf(s)['command']).includes('--chain-only'));
    expect(chain).toBeDefined();
    const argv = asArgv(mapOf(chain?.[1])['command']);
    const written = argv[argv.indexOf('--deployment-env') + 1];
    const volumeOf = (s: unknown, path: string) =>
      listOf(mapOf(s)['volumes'])
        .map(String)
        .find((v) => path.startsWith(`${v.split(':')[1]}/`))
        ?.split(':')[0];
    const readers = Object.entries(services).filter(([, s]) =>
      asArgv(mapOf(s)['entrypoint']).join(' ').includes('deployment.env'),
    );
    expect(readers.length).toBeGreaterThan(0);
    for (const [name, s] of readers) {
      expect({ name, sources: asArgv(mapOf(s)['entrypoint']).join(' ').includes(` ${written})`) }).toEqual({
        name,
        sources: true,
      });
      expect({ name, volume: volumeOf(s, written) }).toEqual({ name, volume: volumeOf(chain?.[1], written) });
      expect({ name, waits: mapOf(mapOf(mapOf(s)['depends_on'])[chain?.[0] ?? ''])['condition'] }).toEqual({
        name,
        waits: 'service_healthy',
      });
    }
  });
  /** What an app started by compose's deployment-env entrypoint sees of these variables, given the file. */
  const exportedBy = (fileText: string, names: string): (string | null)[] => {
    const reader = Object.values(services).find((s) =>
      asArgv(mapOf(s)['entrypoint']).join(' ').includes('deployment.env'),
    );
    const [shell, flag, script, name] = asArgv(mapOf(reader)['entrypoint']);
    const dir = mkdtempSync(join(tmpdir(), 'deployment-env-'));
    try {
      const file = join(dir, 'deployment.env');
      writeFileSync(file, fileText);
      // compose turns $$ into $; the test's file stands in for the shared volume's
      const run = script.replaceAll('$$', '$').replace('/shared/deployment.env', file);
      const show =
        'console.log(JSON.stringify([process.env.CHAIN_ID, process.env.RPC_URL, process.env.OPERATOR_PRIVATE_KEY, process.env.CHAIN_IDX]))';
      return JSON.parse(
        execFileSync(shell, [flag, run, name, names, '-e', show], {
          cwd: REPO_ROOT,
          encoding: 'utf8',
          env: { PATH: process.env['PATH'] },
        }),
      ) as (string | null)[];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('exports to an app only the deployment variables its command names, however the file orders them', () => {
    const file = 'RPC_URL=http://chain:8545\nOPERATOR_PRIVATE_KEY=0xabc\nCHAIN_ID=31337\nCHAIN_IDX=1\n';
    expect(exportedBy(file, 'CHAIN_ID')).toEqual(['31337', null, null, null]);
    expect(exportedBy(file, 'RPC_URL|CHAIN_ID')).toEqual(['31337', 'http://chain:8545', null, null]);
  });

  it("passes a value holding shell syntax, as ops start's deployment file writes it, through as text: nothing runs", () => {
    const dir = mkdtempSync(join(tmpdir(), 'deployment-env-marker-'));
    try {
      const marker = join(dir, 'ran');
      const rpcUrl = `http://chain:8545/?key=it's$(touch ${marker})&x=\`touch ${marker}\`;touch ${marker}`;
      const chain = {
        rpcUrl,
        chainId: 31337,
        startBlock: 1,
        contracts: { jackpot: '0x01' },
        operatorPrivateKey: '0xabc',
      };
      const file = deploymentEnvFile(chain, rpcUrl);
      expect(exportedBy(file, 'RPC_URL|CHAIN_ID|OPERATOR_PRIVATE_KEY')).toEqual(['31337', rpcUrl, '0xabc', null]);
      expect(existsSync(marker)).toBe(false);
      // plain values stay plain: the file is the dotenv shape other readers expect
      expect(file).toContain('CHAIN_ID=31337\nSTART_BLOCK=1\nJACKPOT_ADDRESS=0x01\n');
      expect(() => deploymentEnvFile(chain, 'http://a\nOPERATOR_PRIVATE_KEY=0xevil')).toThrow(/line break/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('docker/Dockerfile', () => {
  it("starts each stage's default app with its V8 flags", () => {
    const dockerfile = readFileSync(join(REPO_ROOT, 'docker', 'Dockerfile'), 'utf8');
    const runners = dockerfile.split(/^FROM /m).flatMap((stage): AppRunner[] => {
      const cmd = /^CMD (\[.*\])$/m.exec(stage);
      if (!cmd) return [];
      const { nodeArgs, entry } = splitAtEntry(JSON.parse(cmd[1]) as string[]);
      const app = appOfEntry(entry);
      return app ? [{ where: `docker/Dockerfile stage ${stage.split('\n')[0]}`, app, nodeArgs, env: new Map() }] : [];
    });
    expect(runners.map((r) => r.app)).toEqual(['ops', 'api']);
    expect(nodeFlagProblems(runners)).toEqual([]);
  });
});

describe('package.json', () => {
  it('runs the ops CLI (npm start, npm run ops) and the in-process benches with the ops V8 flags', () => {
    const { scripts } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const runners = ['start', 'ops', 'bench', 'bench:replay'].map((name): AppRunner => {
      const [node, ...argv] = scripts[name].split(' ');
      expect(node).toBe('node');
      const { nodeArgs, entry } = splitAtEntry(argv);
      expect(entry).toMatch(name.startsWith('bench') ? /^bench\// : /^apps\/ops\//);
      // the swc hook is how every entry point runs, not a V8 flag
      const flags = nodeArgs.filter((arg, i) => arg !== '-r' && nodeArgs[i - 1] !== '-r');
      return { where: `npm script ${name}`, app: 'ops', nodeArgs: flags, env: new Map() };
    });
    expect(nodeFlagProblems(runners)).toEqual([]);
  });
});
