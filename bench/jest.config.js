module.exports = {
  ...require('../jest.preset.js'),
  displayName: 'bench',
  rootDir: __dirname,
  // The benchmarks have no src/; their measuring tools sit beside the scripts that use them.
  testMatch: ['<rootDir>/api/**/*.spec.ts', '<rootDir>/lib/**/*.spec.ts'],
};
