import { type logCreator, logLevel } from 'kafkajs';

/**
 * kafkajs logs some broker answers as ERROR although it retries them and succeeds: a transaction
 * started right after the previous commit (the coordinator is still writing its markers), and
 * coordinators that are still loading or moving. They are part of normal operation, so they are not
 * logged; kafkajs reports them as errors only if its retries run out, and then the call fails.
 */
const RETRIED_BY_KAFKAJS = [
  'another concurrent operation on the same transaction was ongoing', // CONCURRENT_TRANSACTIONS
  "The coordinator is loading and hence can't process requests", // GROUP_LOAD_IN_PROGRESS
  'The group coordinator is not available', // GROUP_COORDINATOR_NOT_AVAILABLE
  'This is not the correct coordinator for this group', // NOT_COORDINATOR_FOR_GROUP
];

/**
 * kafkajs's console logger (JSON lines, WARN and up) without the retried answers above, nor their stacks:
 * each retry of an unreachable broker logged one (a dozen lines of kafkajs's internals before the
 * command's own one-line error), and the message and error name say what failed.
 */
export const kafkaLogCreator: logCreator =
  () =>
  ({ namespace, level, label, log }) => {
    const text = `${log.message} ${String(log['error'] ?? '')}`;
    if (RETRIED_BY_KAFKAJS.some((retried) => text.includes(retried))) return;
    const { stack: _stack, ...said } = log;
    const line = JSON.stringify({
      ...said,
      level: label,
      message: namespace ? `[${namespace}] ${log.message}` : log.message,
    });
    if (level === logLevel.ERROR) console.error(line);
    else if (level === logLevel.WARN) console.warn(line);
    else console.info(line);
  };
