import { createServer } from 'node:net';
import { freePort, freePorts } from './free-port';

describe('free ports', () => {
  it('gives distinct ports, each one a server can listen on', async () => {
    const ports = await freePorts(20);
    expect(new Set(ports).size).toBe(20);
    const servers = await Promise.all(
      ports.map(
        (port) =>
          new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
            const server = createServer().once('error', reject);
            server.listen(port, '127.0.0.1', () => resolve(server));
          }),
      ),
    );
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it('keeps a preferred port when it is free, and picks another when it is taken', async () => {
    const [preferred] = await freePorts(1);
    expect(await freePort(preferred)).toBe(preferred);
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(preferred, '127.0.0.1', resolve));
    try {
      expect(await freePort(preferred)).not.toBe(preferred);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
