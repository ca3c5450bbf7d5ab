import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { kafkaBrokers, startKafka, uniqueName } from '../src';

const MESSAGES = 10_000;
const SEND_CHUNK = 1_000;

function client(brokers: string[]): Kafka {
  return new Kafka({ clientId: 'harness-test', brokers, logLevel: logLevel.WARN });
}

async function createTopic(kafka: Kafka, topic: string): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 1, replicationFactor: 1 }] });
  } finally {
    await admin.disconnect();
  }
}

async function produce(kafka: Kafka, topic: string, values: string[]): Promise<void> {
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, idempotent: true });
  await producer.connect();
  try {
    for (let i = 0; i < values.length; i += SEND_CHUNK) {
      await producer.send({ topic, acks: -1, messages: values.slice(i, i + SEND_CHUNK).map((value) => ({ value })) });
    }
  } finally {
    await producer.disconnect();
  }
}

/** Reads `count` messages of the topic from its beginning, in the order the broker hands them out. */
async function consume(kafka: Kafka, topic: string, count: number): Promise<string[]> {
  const consumer = kafka.consumer({ groupId: uniqueName('harness_group'), maxWaitTimeInMs: 100 });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const received: string[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          autoCommit: false,
          eachBatch: async ({ batch }) => {
            for (const message of batch.messages) received.push(message.value?.toString() ?? '');
            if (received.length >= count) resolve();
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
  return received;
}

describe('the run Kafka broker (jest globalSetup)', () => {
  it('carries 10,000 messages through one partition in order', async () => {
    const kafka = client(kafkaBrokers());
    const topic = uniqueName('harness_order');
    await createTopic(kafka, topic);
    const sent = Array.from({ length: MESSAGES }, (_, i) => `message-${i}`);

    await produce(kafka, topic, sent);

    expect(await consume(kafka, topic, MESSAGES)).toEqual(sent);
  }, 60_000);
});

describe('startKafka', () => {
  it('keeps committed messages across restart() on the same address', async () => {
    const broker = await startKafka();
    try {
      const kafka = client(broker.brokers);
      const topic = uniqueName('harness_restart');
      await createTopic(kafka, topic);
      await produce(kafka, topic, ['before restart']);

      await broker.restart();

      expect(await consume(kafka, topic, 1)).toEqual(['before restart']);
    } finally {
      await broker.stop();
    }
  }, 90_000);
});
