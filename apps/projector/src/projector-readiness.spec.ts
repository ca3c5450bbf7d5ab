import { projectorNotReadyReason } from './projector-readiness';

describe('projector readiness', () => {
  it('is ready within the allowed lag and says why not otherwise', () => {
    const ready = (failure: string | null, lagEvents: number | null) =>
      projectorNotReadyReason({ failure, lagEvents, maxLagEvents: 1_000 });
    expect(ready(null, 0)).toBeNull();
    expect(ready(null, 1_000)).toBeNull();
    expect(ready(null, 1_001)).toBe('catching up: 1001 events behind the event log');
    expect(ready(null, null)).toMatch(/measuring/);
    expect(ready('poison event at position 7', 0)).toBe('poison event at position 7');
  });
});
