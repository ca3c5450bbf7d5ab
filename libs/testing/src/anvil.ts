// Tests use the same anvil launcher as `ops start`; it lives with the local lottery in libs/contracts.
export { startAnvil, anvilBinaryPath, type AnvilOptions, type AnvilInstance } from '@lottery/contracts';
