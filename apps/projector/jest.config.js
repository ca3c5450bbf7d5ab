module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'projector',
  rootDir: __dirname,
};
