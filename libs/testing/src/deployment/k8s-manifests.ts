/** k8s/ read as the apps' containers see it: every workload's containers, with their resolved environment. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { repoRoot } from '../repo-root';
import { type AppRunner, pipelineReadyUrlsOf, type ReadyUrl, splitAtEntry } from './app-runner';
import { appOfEntry } from './deployable-apps';
import { listOf, mapOf, textOf, type YamlMap } from './yaml-values';

export interface Manifest {
  /** Relative to the repository root. */
  file: string;
  kind: string;
  name: string;
  doc: YamlMap;
}

/** A container of a workload that runs one of the apps. */
export interface K8sRunner extends AppRunner {
  workload: Manifest;
  container: YamlMap;
  /** envFrom and valueFrom references to ConfigMaps, Secrets or keys that are not in k8s/. */
  problems: string[];
}

export interface K8sDeployment {
  /** Every document except the Kustomizations. */
  manifests: Manifest[];
  kustomizations: Manifest[];
  runners: K8sRunner[];
  /** Containers that run no app's entry point. */
  unknown: string[];
  readyUrls: ReadyUrl[];
}

const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'];

/** Parses every manifest under k8s/; needs no cluster. */
export function loadK8sDeployment(): K8sDeployment {
  const root = repoRoot();
  const all = yamlFilesUnder(join(root, 'k8s')).flatMap((path) =>
    parseAllDocuments(readFileSync(path, 'utf8')).flatMap((document) => {
      if (document.errors.length > 0) throw new Error(`${path}: ${document.errors[0].message}`);
      const doc = mapOf(document.toJS());
      if (Object.keys(doc).length === 0) return [];
      const file = relative(root, path);
      return [{ file, kind: String(doc['kind']), name: String(mapOf(doc['metadata'])['name']), doc }];
    }),
  );
  const manifests = all.filter((m) => m.kind !== 'Kustomization');
  const { runners, unknown } = k8sRunners(manifests);
  return {
    manifests,
    kustomizations: all.filter((m) => m.kind === 'Kustomization'),
    runners,
    unknown,
    readyUrls: k8sReadyUrls(manifests, runners),
  };
}

function yamlFilesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFilesUnder(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

export function podSpecOf(m: Manifest): YamlMap {
  const spec = mapOf(m.doc['spec']);
  const template =
    m.kind === 'CronJob' ? mapOf(mapOf(mapOf(spec['jobTemplate'])['spec'])['template']) : mapOf(spec['template']);
  return mapOf(template['spec']);
}

export function podLabelsOf(m: Manifest): YamlMap {
  return mapOf(mapOf(mapOf(mapOf(m.doc['spec'])['template'])['metadata'])['labels']);
}

export function selectorMatches(selector: YamlMap, labels: YamlMap): boolean {
  const entries = Object.entries(selector);
  return entries.length > 0 && entries.every(([k, v]) => labels[k] === v);
}

/** A probe or Service port (a name or a number) as the container port it means, if the container has it. */
export function resolvePort(container: YamlMap, port: unknown): number | undefined {
  const ports = listOf(container['ports']).map(mapOf);
  const named = ports.find((p) => p['name'] === port);
  if (named) return Number(named['containerPort']);
  return ports.some((p) => Number(p['containerPort']) === Number(port)) ? Number(port) : undefined;
}

function k8sRunners(manifests: Manifest[]): { runners: K8sRunner[]; unknown: string[] } {
  const find = (kind: string, name: string) => manifests.find((m) => m.kind === kind && m.name === name);
  const dataOf = (m: Manifest): YamlMap => ({ ...mapOf(m.doc['data']), ...mapOf(m.doc['stringData']) });
  const runners: K8sRunner[] = [];
  const unknown: string[] = [];
  for (const workload of manifests.filter((w) => WORKLOAD_KINDS.includes(w.kind))) {
    const pod = podSpecOf(workload);
    for (const container of [...listOf(pod['initContainers']), ...listOf(pod['containers'])].map(mapOf)) {
      const where = `${workload.file} ${workload.kind}/${workload.name} container ${String(container['name'])}`;
      const argv = [...listOf(container['command']), ...listOf(container['args'])].map(String);
      const { nodeArgs, entry } = splitAtEntry(argv);
      const app = appOfEntry(entry);
      if (!app) {
        unknown.push(`${where}: runs ${JSON.stringify(argv)}, not an entry point of any app`);
        continue;
      }
      const runner: K8sRunner = { where, app, nodeArgs, env: new Map(), workload, container, problems: [] };
      for (const source of listOf(container['envFrom']).map(mapOf)) {
        const ref = mapOf(source['configMapRef'] ?? source['secretRef']);
        const kind = source['configMapRef'] ? 'ConfigMap' : 'Secret';
        const target = find(kind, String(ref['name']));
        if (!target) {
          runner.problems.push(`${where}: envFrom ${kind}/${String(ref['name'])} is not in k8s/`);
          continue;
        }
        for (const [k, v] of Object.entries(dataOf(target)))
          runner.env.set(`${textOf(source['prefix']) ?? ''}${k}`, textOf(v));
      }
      for (const e of listOf(container['env']).map(mapOf)) {
        const name = String(e['name']);
        const from = mapOf(e['valueFrom']);
        const keyRef = mapOf(from['configMapKeyRef'] ?? from['secretKeyRef']);
        if (Object.keys(keyRef).length > 0) {
          const kind = from['configMapKeyRef'] ? 'ConfigMap' : 'Secret';
          const target = find(kind, String(keyRef['name']));
          const data = target ? dataOf(target) : {};
          if (!(String(keyRef['key']) in data)) {
            runner.problems.push(
              `${where}: ${name} refers to ${kind}/${String(keyRef['name'])} key ${String(keyRef['key'])}, which is not in k8s/`,
            );
          }
          runner.env.set(name, textOf(data[String(keyRef['key'])]));
        } else {
          runner.env.set(name, textOf(e['value']));
        }
      }
      runners.push(runner);
    }
  }
  return { runners, unknown };
}

/** Each PIPELINE_READY_URLS URL through the Service its host names to a container of a Deployment it selects. */
function k8sReadyUrls(manifests: Manifest[], runners: K8sRunner[]): ReadyUrl[] {
  return runners.flatMap((r) =>
    pipelineReadyUrlsOf(r).map((url) => {
      const { hostname, port } = new URL(url);
      const service = manifests.find((m) => m.kind === 'Service' && m.name === hostname.split('.')[0]);
      const target = service && backingRunner(runners, service, Number(port || 80));
      return {
        where: `${r.where} PIPELINE_READY_URLS`,
        url,
        target: target && { runner: target.runner, url: target.url(url) },
      };
    }),
  );
}

/** The runner behind a Service port, and the URL rewritten to its container port. */
function backingRunner(
  runners: K8sRunner[],
  service: Manifest,
  servicePort: number,
): { runner: K8sRunner; url: (url: string) => string } | undefined {
  const spec = mapOf(service.doc['spec']);
  const port = listOf(spec['ports'])
    .map(mapOf)
    .find((p) => Number(p['port']) === servicePort);
  if (!port) return undefined;
  const selector = mapOf(spec['selector']);
  for (const r of runners) {
    if (r.workload.kind !== 'Deployment' || !selectorMatches(selector, podLabelsOf(r.workload))) continue;
    const containerPort = resolvePort(r.container, port['targetPort'] ?? port['port']);
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
