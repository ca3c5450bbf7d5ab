/**
 * The API's configuration where it is written down outside the code: the variables and probe routes
 * docker/compose.yml and k8s/ give it, and its table in the README, against its own config schema and
 * health controller.
 */
import 'reflect-metadata';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { type DeployableApp, describeAppDeployment, describeReadmeConfiguration } from '@lottery/testing';
import { API_ENV_KEYS, API_ENV_SCHEMA } from '../src/config/api-config';
import { HealthController } from '../src/health/health.controller';

/** The probe routes, read from the Nest metadata of the health controller. */
async function healthRoutes(): Promise<ReadonlySet<string>> {
  const trim = (path: string) => path.replace(/^\/|\/$/g, '');
  const base = trim(String(Reflect.getMetadata(PATH_METADATA, HealthController)));
  const prototype = HealthController.prototype as unknown as Record<string, unknown>;
  const routes = new Set<string>();
  for (const method of Object.getOwnPropertyNames(prototype)) {
    const handler = method === 'constructor' ? undefined : prototype[method];
    // Route handlers carry an HTTP method and a path; other methods carry neither.
    if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
    const path = trim(String(Reflect.getMetadata(PATH_METADATA, handler)));
    routes.add(`/${[base, path].filter(Boolean).join('/')}`);
  }
  return routes;
}

const api: DeployableApp = {
  name: 'api',
  envKeys: new Set(API_ENV_KEYS),
  schema: API_ENV_SCHEMA,
  http: { portVariable: 'PORT', routes: healthRoutes },
};

describeAppDeployment(api);
describeReadmeConfiguration(api);

it('reads the probe routes from the health controller', async () => {
  expect(await healthRoutes()).toEqual(new Set(['/health/live', '/health/ready']));
});
