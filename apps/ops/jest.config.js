module.exports = {
  ...require('../../jest.preset.js'),
  ...require('../../libs/testing/jest-kafka.js'),
  displayName: 'ops',
  rootDir: __dirname,
};
