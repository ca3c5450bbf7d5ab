import { roundStatus } from './round-status';

describe('round status', () => {
  it('is active while open or drawing and settled once paid out', () => {
    expect(roundStatus('open')).toBe('active');
    expect(roundStatus('locked')).toBe('active');
    expect(roundStatus('settled')).toBe('settled');
  });
});
