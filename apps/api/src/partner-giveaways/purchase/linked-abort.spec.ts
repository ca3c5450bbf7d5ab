import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { linkedAbort } from './linked-abort';

/** V8's collector, whatever flags jest was started with. */
function collectGarbage(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as unknown;
  if (typeof gc !== 'function') throw new Error('no gc function: the test would prove nothing');
  return gc as () => void;
}

describe('linkedAbort', () => {
  it('aborts after the timeout when only a listener holds its signal, across garbage collections', async () => {
    const gc = collectGarbage();
    let aborted = false;
    // nothing keeps the signal but what linkedAbort itself holds (AbortSignal.any on Node 20 did not)
    linkedAbort([new AbortController().signal], 30).signal.addEventListener('abort', () => (aborted = true));
    gc();
    await new Promise((resolve) => setTimeout(resolve, 60));
    gc();
    expect(aborted).toBe(true);
  });

  it('aborts with any parent, at once if one already is', () => {
    const parent = new AbortController();
    const linked = linkedAbort([new AbortController().signal, parent.signal]);
    expect(linked.signal.aborted).toBe(false);
    parent.abort();
    expect(linked.signal.aborted).toBe(true);
    expect(linkedAbort([parent.signal]).signal.aborted).toBe(true);
  });

  it('stops listening once released', () => {
    const parent = new AbortController();
    const linked = linkedAbort([parent.signal], 10_000);
    linked.release();
    parent.abort();
    expect(linked.signal.aborted).toBe(false);
  });
});
