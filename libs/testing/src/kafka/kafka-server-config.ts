/** Where one single-node broker listens and keeps its data. */
export interface KafkaServerLayout {
  brokerPort: number;
  controllerPort: number;
  dataDir: string;
}

/**
 * server.properties of a single-node KRaft broker+controller. Internal topics get one partition and
 * replica (there is one broker), and groups form without the default 3 s wait, so suites start fast.
 */
export function kafkaServerProperties({ brokerPort, controllerPort, dataDir }: KafkaServerLayout): string {
  return [
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${brokerPort},CONTROLLER://127.0.0.1:${controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${brokerPort}`,
    'controller.listener.names=CONTROLLER',
    'inter.broker.listener.name=PLAINTEXT',
    'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    `log.dirs=${dataDir}`,
    'num.partitions=1',
    // Tests create their topics with explicit settings; a typo must fail, not auto-create a topic.
    'auto.create.topics.enable=false',
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=1',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'transaction.state.log.num.partitions=1',
    'group.initial.rebalance.delay.ms=0',
    // Two shared CPU cores: fewer threads than the defaults.
    'num.network.threads=2',
    'num.io.threads=2',
    'num.recovery.threads.per.data.dir=1',
    '',
  ].join('\n');
}

/** Warnings and errors only, to the broker's log file: the test output stays readable. */
export function kafkaLog4jProperties(): string {
  return [
    'log4j.rootLogger=WARN, stdout',
    'log4j.appender.stdout=org.apache.log4j.ConsoleAppender',
    'log4j.appender.stdout.layout=org.apache.log4j.PatternLayout',
    'log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n',
    '',
  ].join('\n');
}
