import { connect } from 'node:net';

/** A request as bytes on the wire: fetch and http.request refuse (or repair) most of what a fuzzer sends. */
export interface RawRequest {
  method: string;
  /** The request-target exactly as sent: raw UTF-8, bad percent-encodings and all. */
  target: string;
  headers: [string, string | Buffer][];
  body?: Buffer;
}

export type RawOutcome =
  | { answered: true; status: number; headers: Record<string, string>; body: Buffer }
  | { answered: false; reason: string };

/**
 * Sends one request on its own connection (`Connection: close`) and reads the answer to the end.
 * No answer within `timeoutMs`, or the connection dropped before a whole response, is `answered: false`.
 */
export function sendRaw(port: number, request: RawRequest, timeoutMs: number): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const bodyless = request.method === 'HEAD';
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (reason: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const parsed = parseResponse(Buffer.concat(chunks), bodyless);
      resolve(parsed ? { answered: true, ...parsed } : { answered: false, reason });
    };
    const timer = setTimeout(() => finish(`no answer in ${timeoutMs} ms`), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // A server may answer (413, 400) before reading a large body, then close: the answer is what counts.
      if (parseResponse(Buffer.concat(chunks), bodyless)) finish('answered');
    });
    socket.on('error', (error) => finish(`connection error: ${error.message}`));
    socket.on('end', () => finish('connection closed before a whole response'));
    const head = [
      `${request.method} ${request.target} HTTP/1.1`,
      ...request.headers.map(([name, value]) => `${name}: ${value.toString()}`),
    ];
    const names = new Set(request.headers.map(([name]) => name.toLowerCase()));
    if (!names.has('host')) head.push(`Host: 127.0.0.1:${port}`);
    head.push('Connection: close');
    if (request.body) head.push(`Content-Length: ${request.body.length}`);
    socket.write(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'utf8'), request.body ?? Buffer.alloc(0)]));
  });
}

/** The response once it is whole (by Content-Length or chunked encoding); null while bytes are missing. */
function parseResponse(
  bytes: Buffer,
  bodyless: boolean,
): { status: number; headers: Record<string, string>; body: Buffer } | null {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  if (!Number.isInteger(status)) return null;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = bytes.subarray(end + 4);
  if (bodyless || status === 204 || status === 304) return { status, headers, body: Buffer.alloc(0) };
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
    const body = dechunk(rest);
    return body ? { status, headers, body } : null;
  }
  const length = Number(headers['content-length'] ?? 0);
  return rest.length >= length ? { status, headers, body: rest.subarray(0, length) } : null;
}

function dechunk(bytes: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  for (let at = 0; ;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) return null;
    if (size === 0) return Buffer.concat(parts);
    if (bytes.length < lineEnd + 2 + size + 2) return null;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
