const preset = require('../../jest.preset.js');

// @fastify/static (behind /v1/docs) requires content-disposition, which ships only as an ES module;
// Node loads it natively, Jest needs it compiled to CommonJS.
const ESM_ONLY = ['content-disposition'];

module.exports = {
  ...preset,
  displayName: 'api',
  rootDir: __dirname,
  transform: {
    ...preset.transform,
    [`/node_modules/(${ESM_ONLY.join('|')})/.+\\.js$`]: ['@swc/jest', { module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
};
