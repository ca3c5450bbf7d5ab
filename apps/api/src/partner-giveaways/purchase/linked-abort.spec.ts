import { linkedAbort } from './linked-abort';

describe('linkedAbort', () => {
  it('aborts after the timeout, even with garbage collection in between', async () => {
    const { signal, release } = linkedAbort([new AbortController().signal], 30);
    (global as { gc?: () => void }).gc?.();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(signal.aborted).toBe(true);
    release();
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
