// Loads TypeScript sources on the fly with swc: decorator metadata (NestJS, TypeORM) and the
// workspace path aliases of tsconfig.base.json work without a build step.
const path = require('node:path');
process.env.SWC_NODE_PROJECT ??= path.join(__dirname, '..', 'tsconfig.base.json');
require('@swc-node/register');
