export * from './anvil';
export * from './postgres/test-database';
export * from './redis/redis-for-suite';
export * from './kafka/kafka-broker';
export * from './kafka/kafka-brokers';
export * from './unique-name';
export * from './rpc-fault-proxy';
