import fc from 'fast-check';
import { BlockRangePlanner } from './block-range-planner';

describe('BlockRangePlanner', () => {
  it('grows at most by the growth factor while responses are small', () => {
    const p = new BlockRangePlanner({ initialSpan: 100, growth: 2, maxSpan: 1_000 });
    p.recordSuccess(100, 0);
    expect(p.nextSpan()).toBe(200);
    p.recordSuccess(200, 0);
    p.recordSuccess(400, 0);
    p.recordSuccess(800, 0);
    expect(p.nextSpan()).toBe(1_000);
  });

  it('grows from the span that succeeded: several ranges of one span in flight do not compound it', () => {
    const p = new BlockRangePlanner({ initialSpan: 8 });
    for (let i = 0; i < 4; i++) p.recordSuccess(8, 0);
    expect(p.nextSpan()).toBe(16);
    p.recordSuccess(3, 0); // a short range at the end of a stretch does not shrink it either
    expect(p.nextSpan()).toBe(16);
  });

  it("drops to the span the refused answer's size points at, unless the provider hints or the density says less", () => {
    const p = new BlockRangePlanner({ initialSpan: 1_000 });
    expect(p.recordTooLarge(1_000, { estimatedBlocks: 7 })).toBe(7);
    expect(p.nextSpan()).toBe(7);
    const dense = new BlockRangePlanner({ initialSpan: 10, targetLogs: 4_000 });
    dense.recordSuccess(10, 20_000); // fits 2 blocks
    for (let i = 0; i < 6; i++) dense.recordSuccess(dense.nextSpan(), 0);
    expect(dense.recordTooLarge(dense.nextSpan(), { estimatedBlocks: 40 })).toBe(2);
    expect(dense.recordTooLarge(500, { suggestedBlocks: 120, estimatedBlocks: 7 })).toBe(120);
  });

  it("never goes past a provider's cap again once a refusal stated it, however empty the blocks", () => {
    const p = new BlockRangePlanner({ initialSpan: 2_500, growth: 2 });
    expect(p.recordTooLarge(2_500, { maxBlocks: 2_000 })).toBe(1_250);
    for (let i = 0; i < 10; i++) p.recordSuccess(p.nextSpan(), 0);
    expect(p.nextSpan()).toBe(2_000);
    // a cap above the refused range says nothing new (the refusal was the answer's size)
    p.recordTooLarge(1_000, { maxBlocks: 5_000 });
    for (let i = 0; i < 10; i++) p.recordSuccess(p.nextSpan(), 0);
    expect(p.nextSpan()).toBe(2_000);
  });

  it('fits the span to the observed density so a response holds about targetLogs logs', () => {
    const p = new BlockRangePlanner({ initialSpan: 1_000, targetLogs: 4_000 });
    p.recordSuccess(1_000, 20_000);
    expect(p.nextSpan()).toBe(200);
  });

  it('halves on a too-large failure, or follows the provider hint', () => {
    const p = new BlockRangePlanner({ initialSpan: 1_000 });
    expect(p.recordTooLarge(1_000)).toBe(500);
    expect(p.nextSpan()).toBe(500);
    expect(p.recordTooLarge(500, { suggestedBlocks: 120 })).toBe(120);
    expect(p.nextSpan()).toBe(120);
  });

  it('never leaves [minSpan, maxSpan] and a retry span is always smaller than the failed one', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({ ok: fc.constant(true), logs: fc.nat(100_000) }),
            fc.record({ ok: fc.constant(false), hint: fc.option(fc.nat(5_000)) }),
          ),
        ),
        (steps) => {
          const p = new BlockRangePlanner({ minSpan: 1, maxSpan: 5_000 });
          for (const s of steps) {
            const span = p.nextSpan();
            if (s.ok) p.recordSuccess(span, s.logs);
            else if (span > 1)
              expect(p.recordTooLarge(span, { suggestedBlocks: s.hint ?? undefined })).toBeLessThan(span);
            expect(p.nextSpan()).toBeGreaterThanOrEqual(1);
            expect(p.nextSpan()).toBeLessThanOrEqual(5_000);
          }
        },
      ),
    );
  });

  it('after an empty stretch, a refusal drops straight to the span that fitted the last logs', () => {
    const p = new BlockRangePlanner({ initialSpan: 10, targetLogs: 4_000 });
    p.recordSuccess(10, 8_000); // dense: 800 logs per block fits 5 blocks
    expect(p.nextSpan()).toBe(5);
    for (let i = 0; i < 10; i++) p.recordSuccess(p.nextSpan(), 0); // an empty stretch: 5 → 5,120
    expect(p.nextSpan()).toBe(5_120);
    expect(p.recordTooLarge(5_120)).toBe(5);
    expect(p.nextSpan()).toBe(5);
  });
});
