import { ProjectorReadiness } from './projector-readiness';

describe('projector readiness', () => {
  it('turns ready only once the lag is within the limit, and says why not before', () => {
    const r = new ProjectorReadiness(0);
    expect(r.notReadyReason()).toMatch(/measuring/);
    r.observeLag(812);
    expect(r.notReadyReason()).toBe('catching up: 812 events behind the event log');
    r.observeLag(3);
    expect(r.notReadyReason()).toMatch(/3 events behind/);
    r.observeLag(0);
    expect(r.notReadyReason()).toBeNull();
  });

  it('does not flap on a burst, but leaves when the lag stays over the limit', () => {
    const r = new ProjectorReadiness(10, 3);
    r.observeLag(0);
    r.observeLag(50);
    r.observeLag(40);
    expect(r.notReadyReason()).toBeNull();
    r.observeLag(30);
    expect(r.notReadyReason()).toBe('catching up: 30 events behind the event log');
    r.observeLag(10);
    expect(r.notReadyReason()).toBeNull();
  });

  it('is never ready after a failure', () => {
    const r = new ProjectorReadiness(1_000);
    r.observeLag(0);
    r.fail('poison event at position 7');
    expect(r.notReadyReason()).toBe('poison event at position 7');
  });

  it('is not ready while blocked (read models of other fold rules), and ready again once unblocked', () => {
    const r = new ProjectorReadiness(1_000);
    r.observeLag(0);
    r.blockedBy('folded under fold rules version 1');
    expect(r.notReadyReason()).toBe('folded under fold rules version 1');
    r.blockedBy(null);
    expect(r.notReadyReason()).toBeNull();
  });
});
