module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'ops',
  rootDir: __dirname,
};
