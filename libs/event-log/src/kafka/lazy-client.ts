interface Connectable {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
}

/** A kafkajs client (admin, producer) connected on first use; after a failure, the next use starts afresh. */
export class LazyClient<T extends Connectable> {
  private client: Promise<T> | undefined;

  constructor(private readonly create: () => T) {}

  get(): Promise<T> {
    if (!this.client) {
      const client = this.create();
      const connected = client.connect().then(() => client);
      this.client = connected;
      connected.catch(() => this.discard());
    }
    return this.client;
  }

  /** Forgets the client (disconnecting it in the background), e.g. after it was fenced. */
  discard(): void {
    void this.close();
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.then((c) => c.disconnect()).catch(() => undefined);
  }
}
