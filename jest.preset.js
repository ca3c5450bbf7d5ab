// Shared jest settings: swc transpiles TypeScript (with decorator metadata for NestJS and TypeORM),
// and rewrites the @lottery/* aliases of tsconfig.base.json to the libraries' sources, as
// tools/register.js does when the apps run. The rewrite sits in the transform rather than in a
// moduleNameMapper because jest loads globalSetup/globalTeardown (the run's Kafka broker) outside its
// module registry, where a moduleNameMapper does not apply but the transform does.
const { compilerOptions } = require('./tsconfig.base.json');

module.exports = {
  testEnvironment: 'node',
  // Integration tests run on real services (Postgres, Kafka, anvil) on a 2-core machine: 5 s is too tight
  // for a database round trip when other suites load it. Slow suites set their own, longer timeouts.
  testTimeout: 30_000,
  // Two test files at once: most of a file's time is spent waiting on those services (a block mined, a
  // broker's answer, a process starting), so a second one nearly halves a project's run on two cores.
  // Every test makes its own databases, topics and queue namespaces (uniqueName) and data folders
  // (mkdtemp); servers listen on ports the kernel picks, except a first `ops start`'s anvil (8545 when free),
  // whose tests therefore share one file.
  maxWorkers: 2,
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          baseUrl: __dirname,
          paths: compilerOptions.paths,
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
};
