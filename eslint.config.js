// The architecture's layers, enforced: each project may import only the projects its row names
// (README.md, "Architecture", says what each project does). Tests may also use the harness and any library (never an app).
const nx = require('@nx/eslint-plugin');

const LIBS = ['type:domain', 'type:adapter', 'type:feature', 'type:testing'];
const layers = {
  'scope:domain': [],
  'scope:chain': ['scope:domain'],
  'scope:event-log': ['scope:domain'],
  'scope:persistence': ['scope:domain'],
  'scope:projection': ['scope:domain', 'scope:persistence', 'scope:event-log'],
  'scope:contracts': ['scope:domain', 'scope:chain'],
  'scope:testing': [
    'scope:domain',
    'scope:chain',
    'scope:event-log',
    'scope:persistence',
    'scope:projection',
    'scope:contracts',
    'scope:testing',
    'scope:telemetry',
  ],
  'scope:telemetry': [],
  'scope:indexer': ['scope:domain', 'scope:chain', 'scope:event-log', 'scope:telemetry'],
  'scope:projector': ['scope:domain', 'scope:event-log', 'scope:persistence', 'scope:projection', 'scope:telemetry'],
  'scope:api': ['scope:domain', 'scope:persistence', 'scope:chain', 'scope:telemetry'],
  // bench/: the benchmarks drive every library (and the apps, as processes only)
  'scope:bench': [
    'scope:domain',
    'scope:chain',
    'scope:event-log',
    'scope:persistence',
    'scope:projection',
    'scope:contracts',
    'scope:testing',
    'scope:telemetry',
  ],
  'scope:ops': [
    'scope:domain',
    'scope:telemetry',
    'scope:chain',
    'scope:event-log',
    'scope:persistence',
    'scope:projection',
    'scope:contracts',
  ],
};

// The domain is pure: no package that reaches a database, a broker, the network, the file system or a
// process (viem's pure helpers, such as the address checksum, are allowed).
const IO_PACKAGES = [
  'pg',
  'pg-*',
  'typeorm',
  'kafkajs',
  'ioredis',
  'bullmq',
  '@nestjs/*',
  'node:*',
  'fs',
  'fs/*',
  'net',
  'http',
  'https',
  'http2',
  'dns',
  'tls',
  'dgram',
  'os',
  'undici',
  'child_process',
  'worker_threads',
  'pino',
];

const boundaries = (forTests) => [
  'error',
  {
    enforceBuildableLibDependency: false,
    allow: [],
    depConstraints: Object.entries(layers).map(([sourceTag, allowed]) => ({
      sourceTag,
      onlyDependOnLibsWithTags: forTests ? LIBS : allowed,
    })),
  },
];

module.exports = [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/node_modules', '**/dist', '.data', '.cache', 'tmp', '**/*.js'] },
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': boundaries(false),
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['libs/domain/src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: IO_PACKAGES, message: 'libs/domain is pure: I/O belongs to an adapter library' }] },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/test/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': boundaries(true) },
  },
];
