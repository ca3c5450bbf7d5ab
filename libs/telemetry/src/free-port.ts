import { createServer, type Server } from 'node:net';

/**
 * A TCP port free on 127.0.0.1 right now, preferring `preferred` (so a restart keeps its URLs). For
 * servers that cannot report a port they chose (Kafka, embedded Postgres) and for stable local URLs.
 */
export async function freePort(preferred?: number): Promise<number> {
  if (preferred && (await canListen(preferred))) return preferred;
  const [port] = await freePorts(1);
  return port;
}

/**
 * `count` distinct free ports. Each is held until all are chosen: the kernel may hand out a port it
 * just took back, and two separate `freePort()` calls have been seen to return the same one.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await listening(0));
    return servers.map((server) => {
      const address = server.address();
      return typeof address === 'object' && address ? address.port : 0;
    });
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

function listening(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

function canListen(port: number): Promise<boolean> {
  return listening(port).then(
    (server) => new Promise((resolve) => server.close(() => resolve(true))),
    () => false,
  );
}
