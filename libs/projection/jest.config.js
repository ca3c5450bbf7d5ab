module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'projection',
  rootDir: __dirname,
};
