// Helpers the apps' integration tests share to drive the pipeline on real services: a follower over
// the local lottery, the log read back, app processes, raw JSON-RPC and polling. Apart from libs/testing
// because it uses the libraries whose own tests use libs/testing (no project cycle).
export * from './eventually';
export * from './json-rpc';
export * from './app-process';
export * from './lottery-follower';
