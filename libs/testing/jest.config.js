module.exports = {
  ...require('../../jest.preset.js'),
  ...require('./jest-kafka.js'),
  displayName: 'testing',
  rootDir: __dirname,
};
