import type { Subscription } from '../event-log.port';

/** The subscriptions an adapter has open, so close() can stop them before releasing connections. */
export class LiveSubscriptions {
  private readonly live = new Set<Subscription>();

  track(subscription: Subscription): Subscription {
    this.live.add(subscription);
    subscription.done.then(
      () => this.live.delete(subscription),
      () => this.live.delete(subscription),
    );
    return subscription;
  }

  /** Stops them all; their errors belong to their owners (stop()/done), not to close(). */
  async stopAll(): Promise<void> {
    await Promise.allSettled([...this.live].map((subscription) => subscription.stop()));
  }
}
