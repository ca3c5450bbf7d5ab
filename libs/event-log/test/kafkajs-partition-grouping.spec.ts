import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

type Message = { value: string };
type Grouping = (args: {
  topic: string;
  partitionMetadata: { partitionId: number }[];
  messages: Message[];
  partitioner: (args: { message: Message }) => number;
}) => Record<string, Message[]>;

const GROUPING = 'kafkajs/src/producer/groupMessagesPerPartition.js';
const PATCHER = resolve(__dirname, '../../../tools/patch-dependencies.js');
/** The function as kafkajs 2.2.4 ships it: a copy of the partition's array per message. */
const RELEASED = `module.exports = ({ topic, partitionMetadata, messages, partitioner }) => {
  if (partitionMetadata.length === 0) {
    return {}
  }

  return messages.reduce((result, message) => {
    const partition = partitioner({ topic, partitionMetadata, message })
    const current = result[partition] || []
    return Object.assign(result, { [partition]: [...current, message] })
  }, {})
}
`;

function expectGroupsInOrder(group: Grouping): void {
  const messages = Array.from({ length: 1_000 }, (_, i) => ({ value: String(i) }));
  const grouped = group({
    topic: 't',
    partitionMetadata: [{ partitionId: 0 }, { partitionId: 1 }, { partitionId: 2 }],
    messages,
    partitioner: ({ message }) => Number(message.value) % 3,
  });
  expect(Object.keys(grouped).sort()).toEqual(['0', '1', '2']);
  for (const p of [0, 1, 2]) expect(grouped[p]).toEqual(messages.filter((_, i) => i % 3 === p));
  expect(group({ topic: 't', partitionMetadata: [], messages, partitioner: () => 0 })).toEqual({});
}

describe('kafkajs partition grouping, fixed by tools/patch-dependencies.js', () => {
  let root: string;
  const target = () => join(root, GROUPING);
  const write = (text: string) => {
    mkdirSync(dirname(target()), { recursive: true });
    writeFileSync(target(), text);
  };
  const patch = () => spawnSync(process.execPath, [PATCHER, root], { encoding: 'utf8' });

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'patch-deps-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is fixed in the installed kafkajs, which still groups each partition’s messages in send order', () => {
    expect(readFileSync(require.resolve(GROUPING), 'utf8')).not.toContain('[...current, message]');
    expectGroupsInOrder(require(GROUPING) as Grouping);
  });

  it('replaces the released function with one that groups the same, and leaves a fixed file as it is', () => {
    write(RELEASED);
    const first = patch();
    expect(first.status).toBe(0);
    expect(first.stdout).toBe(`patched ${GROUPING}\n`);
    const fixed = readFileSync(target(), 'utf8');
    expect(fixed).not.toContain('[...current, message]');
    expectGroupsInOrder(require(target()) as Grouping);
    const second = patch();
    expect(second.status).toBe(0);
    expect(second.stdout).toBe('');
    expect(readFileSync(target(), 'utf8')).toBe(fixed);
  });

  it('fails on a file holding neither the released text nor the fix (an upgraded dependency)', () => {
    write('module.exports = () => ({})\n');
    const run = patch();
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('holds neither the text this fix replaces nor the fix');
  });
});
