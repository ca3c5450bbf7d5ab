import type { FastifyInstance } from 'fastify';

/** The files a reference page loads: Swagger UI's bundle, preset, stylesheet and icons, and Nest's init script. */
const REFERENCE_FILES = new Set([
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'swagger-ui-standalone-preset.js',
  'swagger-ui-init.js',
  'favicon-32x32.png',
  'favicon-16x16.png',
]);

/**
 * Swagger UI's folder, which Nest serves under each reference's path, holds more than the page loads (its
 * package.json, README, licence texts, source maps, build logs): a GET or HEAD of any other file there is
 * the 404 of a file the reference does not have, so the server tells no library's version. Other methods
 * go on to the routes, as before.
 */
export function serveOnlyReferenceFiles(fastify: FastifyInstance, docsPaths: readonly string[]): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return done();
    const path = request.url.split('?', 1)[0];
    const docs = docsPaths.find((docsPath) => path.startsWith(`/${docsPath}/`));
    const file = docs === undefined ? '' : path.slice(docs.length + 2);
    if (file === '' || REFERENCE_FILES.has(file)) return done();
    reply.callNotFound();
  });
}
