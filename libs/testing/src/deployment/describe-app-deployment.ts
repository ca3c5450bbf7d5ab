import type { AppRunner, ReadyUrl } from './app-runner';
import { asArgv, loadComposeDeployment } from './compose-services';
import { type DeployableApp, listenPort } from './deployable-apps';
import { loadK8sDeployment, resolvePort } from './k8s-manifests';
import { listOf, mapOf } from './yaml-values';

/**
 * The checks of one app against docker/compose.yml and k8s/, run by the app's own test with the app's
 * config (so no test imports another app): its containers get only variables it reads, and every probe,
 * health check and PIPELINE_READY_URLS entry that reaches it asks a route it serves, on the port it
 * listens on. What spans the apps (which containers exist, values they share, the Kubernetes shape) is
 * checked once, by apps/ops/test/deploy-manifests.spec.ts.
 */
export function describeAppDeployment(app: DeployableApp): void {
  describe(`${app.name} as docker/compose.yml and k8s/ deploy it`, () => {
    // Only checks with something to check are made (none that passes over nothing): k8s/ runs no ops
    // container (which apps each deployment runs is pinned by apps/ops/test/deploy-manifests.spec.ts), a
    // migration serves no HTTP, and PIPELINE_READY_URLS reach only some apps.
    const k8s = loadK8sDeployment();
    const k8sRunners = k8s.runners.filter((r) => r.app === app.name);
    const compose = loadComposeDeployment();
    const composeRunners = compose.runners.filter((r) => r.app === app.name);
    const reaches = (urls: ReadyUrl[]) => urls.some((u) => u.target?.runner.app === app.name);

    if (k8sRunners.length > 0) {
      describe('Kubernetes manifests (k8s/)', () => {
        it(`gives ${app.name} only variables it knows`, () => {
          expect(k8sRunners.flatMap((r) => envProblems(app, r))).toEqual([]);
        });

        it(`probes real routes on the port ${app.name} listens on, both probes where it runs long`, async () => {
          const problems: string[] = [];
          for (const r of k8sRunners) {
            const runsLong = !['Job', 'CronJob'].includes(r.workload.kind);
            for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
              const settings = mapOf(r.container[probe]);
              const http = mapOf(settings['httpGet']);
              if (Object.keys(settings).length === 0) {
                if (runsLong && probe !== 'startupProbe') problems.push(`${r.where}: no ${probe}`);
                continue;
              }
              if (Object.keys(http).length === 0) {
                problems.push(`${r.where}: ${probe} is not an httpGet`);
                continue;
              }
              const port = resolvePort(r.container, http['port']);
              if (port === undefined) {
                problems.push(`${r.where}: ${probe} port ${String(http['port'])} is not a container port`);
                continue;
              }
              const url = `http://pod:${port}${String(http['path'])}`;
              problems.push(...(await servedUrlProblems(app, r, url, `${r.where} ${probe}`)));
            }
          }
          expect(problems).toEqual([]);
        });

        if (app.http) {
          it(`declares the container port ${app.name} listens on`, () => {
            const problems = k8sRunners.flatMap((r) => {
              const ports = listOf(r.container['ports']).map((p) => Number(mapOf(p)['containerPort']));
              const expected = listenPort(app, Object.fromEntries(r.env));
              return ports.includes(expected)
                ? []
                : [`${r.where}: ${app.name} listens on ${expected}, ports are ${ports.join(', ')}`];
            });
            expect(problems).toEqual([]);
          });
        }

        if (reaches(k8s.readyUrls)) {
          it(`serves the PIPELINE_READY_URLS that reach ${app.name}`, async () => {
            expect(await readyUrlProblems(app, k8s.readyUrls)).toEqual([]);
          });
        }
      });
    }

    describe('docker/compose.yml', () => {
      it(`runs ${app.name}, and gives it only variables it knows`, () => {
        expect(composeRunners.length).toBeGreaterThan(0);
        expect(composeRunners.flatMap((r) => envProblems(app, r))).toEqual([]);
      });

      if (app.http) {
        it(`health-checks real routes on the port ${app.name} listens on`, async () => {
          const problems: string[] = [];
          for (const r of composeRunners) {
            const test = asArgv(mapOf(r.definition['healthcheck'])['test']).join(' ');
            const urls = test.match(/https?:\/\/(?:127\.0\.0\.1|localhost)(?::\d+)?\/[^'"\s)]*/g) ?? [];
            if (urls.length === 0) problems.push(`${r.where}: no HTTP health check`);
            for (const url of urls) problems.push(...(await servedUrlProblems(app, r, url, `${r.where} healthcheck`)));
          }
          expect(problems).toEqual([]);
        });
      }

      if (reaches(compose.readyUrls)) {
        it(`serves the PIPELINE_READY_URLS that reach ${app.name}`, async () => {
          expect(await readyUrlProblems(app, compose.readyUrls)).toEqual([]);
        });
      }
    });

    it(`would refuse a variable ${app.name} does not know`, () => {
      const known = [...app.envKeys].slice(0, 1);
      const typo = `${app.name.toUpperCase()}_TYPO`;
      const runner: AppRunner = {
        where: 'test',
        app: app.name,
        nodeArgs: [],
        env: new Map([...known, typo].map((key) => [key, '1'])),
      };
      expect(envProblems(app, runner)).toEqual([`test: ${typo} is not a variable ${app.name} knows`]);
    });
  });
}

function envProblems(app: DeployableApp, runner: AppRunner): string[] {
  return [...runner.env.keys()]
    .filter((key) => !app.envKeys.has(key))
    .map((key) => `${runner.where}: ${key} is not a variable ${app.name} knows`);
}

/** A URL the app must serve: its port the one the app listens on in that runner, its path a route. */
async function servedUrlProblems(app: DeployableApp, runner: AppRunner, url: string, where: string): Promise<string[]> {
  if (!app.http) return [`${where}: ${url} names ${app.name}, which serves no HTTP`];
  const { port, pathname } = new URL(url);
  const problems: string[] = [];
  const expected = listenPort(app, Object.fromEntries(runner.env));
  if (Number(port || 80) !== expected) problems.push(`${where}: ${url} — ${app.name} listens on ${expected}`);
  if (!(await app.http.routes()).has(pathname)) problems.push(`${where}: ${url} — ${app.name} has no ${pathname}`);
  return problems;
}

/** The PIPELINE_READY_URLS that reach this app (the ones that reach no app are the deployment's problem). */
async function readyUrlProblems(app: DeployableApp, readyUrls: ReadyUrl[]): Promise<string[]> {
  const problems: string[] = [];
  for (const { where, target } of readyUrls) {
    if (target?.runner.app === app.name)
      problems.push(...(await servedUrlProblems(app, target.runner, target.url, where)));
  }
  return problems;
}
