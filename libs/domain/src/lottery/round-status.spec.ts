import { canTransition, roundStatus } from './round-status';

describe('round status', () => {
  it('is active while open or drawing and settled once paid out', () => {
    expect(roundStatus('open')).toBe('active');
    expect(roundStatus('locked')).toBe('active');
    expect(roundStatus('settled')).toBe('settled');
  });

  it('allows only forward moves', () => {
    expect(canTransition('open', 'locked')).toBe(true);
    expect(canTransition('locked', 'settled')).toBe(true);
    expect(canTransition('open', 'settled')).toBe(true);
    expect(canTransition('settled', 'open')).toBe(false);
    expect(canTransition('locked', 'open')).toBe(false);
    expect(canTransition('settled', 'locked')).toBe(false);
  });
});
