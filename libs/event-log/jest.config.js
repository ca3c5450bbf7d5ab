module.exports = {
  ...require('../../jest.preset.js'),
  ...require('../testing/jest-kafka.js'),
  displayName: 'event-log',
  rootDir: __dirname,
};
