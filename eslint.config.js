// The layer table of shared/design/architecture.md, enforced: each project may import only the
// projects its row names. Tests may also use the harness and any library (never an app).
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
  'scope:indexer': ['scope:domain', 'scope:chain', 'scope:event-log', 'scope:persistence', 'scope:telemetry'],
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
    files: ['**/*.spec.ts', '**/test/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': boundaries(true) },
  },
];
