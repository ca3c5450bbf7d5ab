// What tests and benchmarks need to check a fold: seeded synthetic lottery histories written as chain
// events, reorgs of them, a deliberately simple reference fold and a field-by-field comparison with the
// read models. Apart from libs/projection so that its tests, the projector's and bench/ share one copy
// (it depends on the domain and the read-model types only, never on the fold it checks).
export * from './chain-writer';
export * from './lottery-history';
export * from './reorg';
export * from './reference-fold';
export * from './read-model-comparison';
export * from './must';
