/**
 * The projector's configuration where it is written down outside the code: the variables and probe
 * routes docker/compose.yml and k8s/ give it, and its table in the README, against its own config schema.
 */
import {
  type DeployableApp,
  describeAppDeployment,
  describeReadmeConfiguration,
  metricsServerRoutes,
} from '@lottery/testing';
import { PROJECTOR_ENV_KEYS, PROJECTOR_ENV_SCHEMA } from '../src/config';

const projector: DeployableApp = {
  name: 'projector',
  envKeys: new Set(PROJECTOR_ENV_KEYS),
  schema: PROJECTOR_ENV_SCHEMA,
  http: { portVariable: 'METRICS_PORT', routes: metricsServerRoutes },
};

describeAppDeployment(projector);
describeReadmeConfiguration(projector);
