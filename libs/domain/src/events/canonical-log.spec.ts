import { canonicalEvents } from './canonical-log';
import { blocksReverted, type ChainEventEnvelope } from './event-envelope';

const ev = (blockNumber: number, logIndex: number, fork = 'a'): ChainEventEnvelope => ({
  id: `1:0x${fork}${blockNumber}:${logIndex}`,
  type: 'JackpotLocked',
  chainId: 1,
  blockNumber,
  blockHash: `0x${fork}${blockNumber}`,
  blockTimestamp: 0,
  txHash: '0x01',
  logIndex,
  address: '0x02',
  payload: { drawingId: '1' },
});

describe('canonicalEvents', () => {
  it('drops re-appended duplicates and reverted blocks, keeping replacements', () => {
    const log = [
      ev(1, 0),
      ev(2, 0),
      ev(2, 0),
      ev(3, 0),
      blocksReverted(1, 2, ['0xa2', '0xa3']),
      ev(2, 0, 'b'),
      ev(3, 1, 'b'),
    ];
    expect(canonicalEvents(log).map((e) => e.id)).toEqual(['1:0xa1:0', '1:0xb2:0', '1:0xb3:1']);
  });

  it('an event reverted and then re-appended with the same id comes back', () => {
    const log = [ev(5, 0), blocksReverted(1, 5, ['0xa5']), ev(5, 0)];
    expect(canonicalEvents(log).map((e) => e.id)).toEqual(['1:0xa5:0']);
  });
});
