import { API_KEYS_CHANGED_CHANNEL } from '@lottery/persistence';
import { Client } from 'pg';
import type { AppLogger } from '../logger';

export interface ApiKeyChangeSubscriber {
  /** Whether changes are being heard (false while the connection is down). */
  setListening(listening: boolean): void;
  /** A key changed. */
  invalidate(): void;
}

const INITIAL_RETRY_MS = 500;
const MAX_RETRY_MS = 10_000;

/** How often, and how patiently, the listening connection is asked whether it still answers. */
export interface ListenerProbe {
  everyMs: number;
  timeoutMs: number;
}

/**
 * A connection that died without a word (a failover, a NAT or firewall dropping it) fires no 'end' nor
 * 'error' until TCP gives up, minutes later: notifications go unheard meanwhile, and the cache would keep
 * serving a revoked key for its whole TTL. A probe that goes unanswered counts as the connection lost.
 */
const DEFAULT_PROBE: ListenerProbe = { everyMs: 15_000, timeoutMs: 5_000 };

/**
 * Holds a connection LISTENing on the accounts' key-change channel and tells the subscriber (the key
 * cache) of every change, and whether it is listening at all: a lost connection means changes may go
 * unheard, so the subscriber stops trusting what it has until the connection is back.
 */
export class ApiKeyChangeListener {
  private client: Client | null = null;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly databaseUrl: string,
    private readonly subscriber: ApiKeyChangeSubscriber,
    private readonly logger: AppLogger,
    private readonly probe: ListenerProbe = DEFAULT_PROBE,
  ) {}

  start(): void {
    void this.connect(INITIAL_RETRY_MS);
  }

  async close(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.subscriber.setListening(false);
    await this.client?.end().catch(() => undefined);
  }

  private async connect(retryMs: number): Promise<void> {
    if (this.stopped) return;
    const client = new Client({
      connectionString: this.databaseUrl,
      application_name: 'lottery-api-key-changes',
      // the OS's default first probe comes after 2 h; the SELECT 1 probe below notices far sooner
      keepAlive: true,
      keepAliveInitialDelayMillis: 30_000,
      query_timeout: this.probe.timeoutMs,
    });
    this.client = client;
    let lost = false;
    let probing: NodeJS.Timeout | undefined;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      clearInterval(probing);
      this.subscriber.setListening(false);
      client.end().catch(() => undefined);
      if (this.stopped) return;
      this.logger.warn({ err: error, retryMs }, 'API key change notifications lost; key lookups uncached until back');
      this.retryTimer = setTimeout(() => void this.connect(Math.min(retryMs * 2, MAX_RETRY_MS)), retryMs);
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', () => this.subscriber.invalidate());
    try {
      await client.connect();
      await client.query(`LISTEN "${API_KEYS_CHANGED_CHANNEL}"`);
      if (lost || this.stopped) return;
      retryMs = INITIAL_RETRY_MS;
      this.subscriber.setListening(true);
      probing = setInterval(() => void client.query('SELECT 1').catch(onLost), this.probe.everyMs);
      probing.unref();
    } catch (error) {
      onLost(error as Error);
    }
  }
}
