import { mapInParallel } from './map-in-parallel';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('mapInParallel', () => {
  it('keeps the items order and never runs more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const out = await mapInParallel([5, 1, 4, 2, 3, 0, 6], 3, async (n) => {
      running += 1;
      most = Math.max(most, running);
      for (let i = 0; i < n; i++) await tick();
      running -= 1;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30, 0, 60]);
    expect(most).toBe(3);
  });

  it('rejects with the first failure, and maps nothing to nothing', async () => {
    await expect(
      mapInParallel([1, 2, 3], 2, async (n) => {
        if (n === 2) throw new Error('two');
        return n;
      }),
    ).rejects.toThrow('two');
    await expect(mapInParallel([], 4, async () => 1)).resolves.toEqual([]);
  });
});
