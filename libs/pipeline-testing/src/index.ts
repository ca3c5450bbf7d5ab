// Helpers the apps' integration tests (and bench/, reliability/) share to drive the pipeline on real
// services: a follower over the local lottery, the log read back, a projected history, the giveaway's
// chain, app processes (the API, the ops CLI), raw JSON-RPC and polling. Apart from libs/testing because
// it uses the libraries whose own tests use libs/testing (no project cycle).
export { eventually } from '@lottery/testing';
export * from './json-rpc';
export * from './app-process';
export * from './api-process';
export * from './ops-cli';
export * from './lottery-follower';
export * from './projected-lottery';
export * from './giveaway-chain';
export * from './app-probes';
export * from './indexer-chain-env';
