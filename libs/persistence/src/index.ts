export * from './read-models';
export * from './accounts';
