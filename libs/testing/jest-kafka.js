// Spread into a project's jest.config.js to run its suites against one real Kafka broker per jest run:
//   module.exports = { ...require('../../jest.preset.js'), ...require('../testing/jest-kafka.js'), ... };
// Suites then read the broker list with kafkaBrokers() from @lottery/testing.
const path = require('node:path');

module.exports = {
  globalSetup: path.join(__dirname, 'src/kafka/kafka-global-setup.ts'),
  globalTeardown: path.join(__dirname, 'src/kafka/kafka-global-teardown.ts'),
};
