import type { EventLogConfig } from '@lottery/event-log';

/** What `ops start` tells on stdout: lines for people, or with --json the events `start --help` lists. */
export interface StartOutput {
  emit: (event: string, fields: Record<string, unknown>) => void;
  say: (message: string) => void;
  /** The live simulator's activity. */
  sayChain: (line: string) => void;
  sayStopping: (signal: string) => void;
}

export function startOutput(json: boolean): StartOutput {
  const write = (line: string) => process.stdout.write(`${line}\n`);
  const emit = (event: string, fields: Record<string, unknown>) => write(JSON.stringify({ event, ...fields }));
  const say = json ? (message: string) => emit('message', { message }) : write;
  const sayChain = json ? (message: string) => emit('chain', { message }) : (line: string) => write(`chain  ${line}`);
  const sayStopping = (signal: string): void => {
    if (json) emit('stopping', { signal });
    else say(`stopping (${signal})`);
  };
  return { emit, say, sayChain, sayStopping };
}

/** A started instance: its banner, or with --json its "ready" event, once the API answers. */
export interface InstanceSummary {
  api: string;
  apiDocs: string;
  freeTicketDocs: string;
  /** The demo keys; null on a real chain, where none are made. */
  apiKey: string | null;
  partnerKey: string | null;
  rpcUrl: string;
  chainId: number;
  /** null with DATABASE_URL. */
  embeddedPostgresPort: number | null;
  eventLog: EventLogConfig['kind'];
  logs: string;
  data: string;
}

export function instanceBanner(instance: InstanceSummary): string {
  return [
    '',
    `  API            ${instance.api}`,
    `  API docs       ${instance.apiDocs}   (free tickets: ${instance.freeTicketDocs})`,
    ...(instance.apiKey === null
      ? ['  keys           none made for a real chain: `npm run ops -- api-keys create`, `partners create`']
      : [`  demo API key   ${instance.apiKey}`, `  partner key    ${instance.partnerKey}`]),
    `  RPC            ${instance.rpcUrl}   (chain id ${instance.chainId})`,
    `  database       ${
      instance.embeddedPostgresPort !== null
        ? `embedded Postgres on port ${instance.embeddedPostgresPort}`
        : 'DATABASE_URL'
    }` + `, event log in ${instance.eventLog === 'kafka' ? 'Kafka' : 'Postgres'}`,
    `  logs           ${instance.logs}`,
    `  data           ${instance.data}   (npm run ops -- reset wipes it)`,
    '',
  ].join('\n');
}
