import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';

/**
 * Closes the app gracefully, but not forever: the server stops accepting, requests in flight finish and
 * idle keep-alive connections are closed, but a connection the server does not see as idle (a request whose
 * headers never end, one of the Data API benchmark's connections) held the shutdown until the supervisor's
 * SIGKILL. After `graceMs` every connection still open is closed.
 */
export async function closeWithin(app: INestApplication, graceMs: number): Promise<void> {
  const server = app.getHttpServer() as Server;
  const cutOff = setTimeout(() => server.closeAllConnections(), graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(cutOff);
  }
}
