import { ConfigResourceTypes, type Admin, type ITopicConfig } from 'kafkajs';

export interface KafkaLogTopics {
  /** Every event of one chain, one partition: the log's total order. */
  events: string;
  /** The indexer's checkpoint, compacted to the latest by key. */
  checkpoints: string;
}

export interface KafkaTopicSettings {
  replicationFactor: number;
  minInsyncReplicas: number;
}

/** Largest record batch the topics accept; appends send well under it (see KafkaEventLog). */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export function kafkaLogTopics(prefix: string, chainId: number): KafkaLogTopics {
  return { events: `${prefix}.events.${chainId}`, checkpoints: `${prefix}.checkpoints.${chainId}` };
}

/**
 * Creates both topics if missing, every setting explicit rather than inherited from the broker: the log
 * is the source of truth for every read model, so it is kept forever, acknowledged only once in sync,
 * and never elects an out-of-sync leader. Existing topics (made by an operator, or before this code) are
 * checked, not altered: an events topic with more than one partition would break the total order, one
 * that deletes or compacts events would lose them, a checkpoint topic that deletes its latest record
 * would send the indexer back to its start block, and one with fewer replicas, or acknowledging appends
 * from fewer of them, than the settings ask would lose acknowledged appends with fewer broker failures.
 */
export async function ensureLogTopics(
  admin: Admin,
  topics: KafkaLogTopics,
  settings: KafkaTopicSettings,
): Promise<void> {
  const common = {
    'min.insync.replicas': String(settings.minInsyncReplicas),
    'unclean.leader.election.enable': 'false',
    // Keep the producer's gzip batches as written; the broker never recompresses.
    'compression.type': 'producer',
    'max.message.bytes': String(MAX_MESSAGE_BYTES),
  };
  const topic = (name: string, config: Record<string, string>): ITopicConfig => ({
    topic: name,
    numPartitions: 1,
    replicationFactor: settings.replicationFactor,
    configEntries: Object.entries({ ...common, ...config }).map(([name, value]) => ({ name, value })),
  });
  const wanted = [
    topic(topics.events, { 'cleanup.policy': 'delete', 'retention.ms': '-1', 'retention.bytes': '-1' }),
    // Small segments so compaction can run: only closed segments are compacted.
    topic(topics.checkpoints, { 'cleanup.policy': 'compact', 'segment.bytes': String(1024 * 1024) }),
  ];
  // Creating only what is missing: kafkajs logs "already exists" as an ERROR (and still succeeds).
  const existing = new Set(await admin.listTopics());
  const missing = wanted.filter((t) => !existing.has(t.topic));
  if (missing.length > 0) await admin.createTopics({ waitForLeaders: true, topics: missing });
  const metadata = await admin.fetchTopicMetadata({ topics: [topics.events, topics.checkpoints] });
  const partitionsOf = (name: string) => metadata.topics.find((t) => t.name === name)?.partitions ?? [];
  const partitions = partitionsOf(topics.events).length;
  if (partitions !== 1) {
    throw new Error(`topic ${topics.events} has ${partitions} partitions; the event log needs exactly 1 (total order)`);
  }
  const configs = await topicConfigs(admin, topics);
  for (const name of [topics.events, topics.checkpoints]) {
    const counts = partitionsOf(name).map((p) => p.replicas.length);
    // a topic the metadata shows no partition of has no replica to count on
    const replicas = counts.length === 0 ? 0 : Math.min(...counts);
    refuseLessDurable(name, replicas, configs(name), settings);
  }
  refuseForgetting(topics, configs);
}

const RETENTION = ['cleanup.policy', 'retention.ms', 'retention.bytes'] as const;
/** A replica behind the leader may become leader: what the old leader had acknowledged is lost. */
const UNCLEAN_ELECTION = 'unclean.leader.election.enable';
const MIN_INSYNC = 'min.insync.replicas';
type Retention = Record<(typeof RETENTION)[number], string | undefined>;
/** A topic's setting as the broker has it (the broker's default when the topic sets none). */
type TopicConfig = (name: string) => string | undefined;

const keepsForever = (c: Retention) => c['retention.ms'] === '-1' && c['retention.bytes'] === '-1';
const compacts = (c: Retention) => (c['cleanup.policy'] ?? '').split(',').includes('compact');
const deletes = (c: Retention) => (c['cleanup.policy'] ?? '').split(',').includes('delete');

async function topicConfigs(admin: Admin, topics: KafkaLogTopics): Promise<(topic: string) => TopicConfig> {
  const { resources } = await admin.describeConfigs({
    includeSynonyms: false,
    resources: [topics.events, topics.checkpoints].map((name) => ({
      type: ConfigResourceTypes.TOPIC,
      name,
      configNames: [...RETENTION, UNCLEAN_ELECTION, MIN_INSYNC],
    })),
  });
  return (topic) => (name) =>
    resources.find((r) => r.resourceName === topic)?.configEntries.find((e) => e.configName === name)?.configValue;
}

function refuseLessDurable(topic: string, replicas: number, config: TopicConfig, settings: KafkaTopicSettings): void {
  if (config(UNCLEAN_ELECTION) === 'true') {
    throw new Error(
      `topic ${topic} may lose acknowledged appends when its leader fails (${UNCLEAN_ELECTION}=true): ` +
        `set ${UNCLEAN_ELECTION}=false (kafka-configs.sh --alter)`,
    );
  }
  const minInsync = Number(config(MIN_INSYNC) ?? 1);
  if (minInsync > replicas) {
    throw new Error(
      `topic ${topic} would acknowledge no append: ${MIN_INSYNC}=${minInsync} but ${replicas} replica(s) ` +
        `(set ${MIN_INSYNC} to at most its replicas: kafka-configs.sh --alter)`,
    );
  }
  const short = [
    ...(replicas < settings.replicationFactor
      ? [`${replicas} replica(s) where the log asks for ${settings.replicationFactor} (KAFKA_REPLICATION_FACTOR)`]
      : []),
    ...(minInsync < settings.minInsyncReplicas
      ? [`${MIN_INSYNC}=${minInsync} where the log asks for ${settings.minInsyncReplicas} (KAFKA_MIN_INSYNC_REPLICAS)`]
      : []),
  ];
  if (short.length > 0) {
    throw new Error(
      `topic ${topic} has ${short.join(' and ')}: an acknowledged append would survive fewer broker failures; ` +
        'raise them (kafka-reassign-partitions.sh, kafka-configs.sh --alter), or lower the variables if this ' +
        'cluster is meant to keep fewer copies',
    );
  }
}

function refuseForgetting(topics: KafkaLogTopics, configs: (topic: string) => TopicConfig): void {
  const settings = (topic: string): Retention => ({
    'cleanup.policy': configs(topic)('cleanup.policy'),
    'retention.ms': configs(topic)('retention.ms'),
    'retention.bytes': configs(topic)('retention.bytes'),
  });
  const shown = (c: Retention) => RETENTION.map((name) => `${name}=${c[name]}`).join(', ');
  const events = settings(topics.events);
  if (compacts(events) || !keepsForever(events)) {
    throw new Error(
      `topic ${topics.events} would lose events (${shown(events)}); the event log keeps every event: ` +
        `set cleanup.policy=delete, retention.ms=-1, retention.bytes=-1 (kafka-configs.sh --alter)`,
    );
  }
  const checkpoints = settings(topics.checkpoints);
  if (deletes(checkpoints) && !keepsForever(checkpoints)) {
    throw new Error(
      `topic ${topics.checkpoints} would delete the indexer's latest checkpoint (${shown(checkpoints)}): ` +
        `set cleanup.policy=compact, or retention.ms=-1 and retention.bytes=-1 (kafka-configs.sh --alter)`,
    );
  }
}
