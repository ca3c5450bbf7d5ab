import { createServer } from 'node:net';

/**
 * A TCP port free on 127.0.0.1 right now, preferring `preferred` (so a restart keeps its URLs). For
 * servers that cannot report a port they chose (Kafka, embedded Postgres) and for stable local URLs.
 */
export async function freePort(preferred?: number): Promise<number> {
  if (preferred && (await canListen(preferred))) return preferred;
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
