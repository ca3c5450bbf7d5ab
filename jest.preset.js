// Shared jest settings: swc transpiles TypeScript (with decorator metadata for NestJS and TypeORM),
// and the @lottery/* aliases resolve to the libraries' sources like tsconfig.base.json says.
const path = require('node:path');

module.exports = {
  testEnvironment: 'node',
  // Integration tests run on real services (Postgres, Kafka, anvil) on a 2-core machine: 5 s is too tight
  // for a database round trip when other suites load it. Slow suites set their own, longer timeouts.
  testTimeout: 30_000,
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: {
    '^@lottery/(.*)$': path.join(__dirname, 'libs/$1/src/index.ts'),
  },
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
};
