module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'indexer',
  rootDir: __dirname,
};
