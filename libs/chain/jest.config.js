module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'chain',
  rootDir: __dirname,
};
