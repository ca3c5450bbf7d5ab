/**
 * The indexer's configuration where it is written down outside the code: the variables and probe routes
 * docker/compose.yml and k8s/ give it, and its table in the README, against its own config schema.
 */
import {
  type DeployableApp,
  describeAppDeployment,
  describeReadmeConfiguration,
  metricsServerRoutes,
} from '@lottery/testing';
import { INDEXER_ENV_KEYS, INDEXER_ENV_SCHEMA } from '../src/config';

const indexer: DeployableApp = {
  name: 'indexer',
  envKeys: new Set(INDEXER_ENV_KEYS),
  schema: INDEXER_ENV_SCHEMA,
  http: { portVariable: 'METRICS_PORT', routes: metricsServerRoutes },
};

describeAppDeployment(indexer);
describeReadmeConfiguration(indexer);

it('serves /metrics and both health probes on its metrics port', async () => {
  expect(await metricsServerRoutes()).toEqual(new Set(['/metrics', '/health/live', '/health/ready']));
});
