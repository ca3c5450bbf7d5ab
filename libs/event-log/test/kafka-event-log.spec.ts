import { kafkaBrokers, uniqueName } from '@lottery/testing';
import { createEventLog } from '../src';
import { describeEventLogContract } from './event-log-contract';

jest.setTimeout(60_000);

describeEventLogContract('kafka', async () => {
  const topicPrefix = uniqueName('log');
  return { open: () => createEventLog({ kind: 'kafka', brokers: kafkaBrokers(), chainId: 8453, topicPrefix }) };
});
