import http from 'node:http';
import net from 'node:net';
import type { ObservedResponse } from './contract';
import type { ConcreteRequest } from './requests';

const TIMEOUT_MS = 20_000;

export interface Sender {
  send(request: ConcreteRequest): Promise<ObservedResponse>;
  close(): void;
}

function noResponse(request: ConcreteRequest, error: unknown): ObservedResponse {
  const message = error instanceof Error ? `${(error as NodeJS.ErrnoException).code ?? error.name}: ${error.message}` : String(error);
  return { method: request.method, target: request.target, status: 0, headers: {}, body: Buffer.from(message) };
}

/** Well-formed requests through fetch; what fetch would refuse or rewrite through node:http or a raw socket. */
export function createSender(baseUrl: string, concurrency: number): Sender {
  const url = new URL(baseUrl);
  // With a timeout of its own, Node's agent retires an idle socket a second before the server's
  // `Keep-Alive: timeout=N` says it will; without one it ignores the hint, and a request written
  // as the server closes that socket meets "socket hang up" (seen once in 2,500 under load).
  const agent = new http.Agent({ keepAlive: true, timeout: TIMEOUT_MS, maxSockets: Math.max(4, concurrency * 2) });

  const viaFetch = async (request: ConcreteRequest): Promise<ObservedResponse> => {
    const response = await fetch(`${baseUrl}${request.target}`, {
      method: request.method,
      headers: request.headers,
      body: request.body ? new Uint8Array(request.body) : undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return { method: request.method, target: request.target, status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) };
  };

  const viaHttp = (request: ConcreteRequest): Promise<ObservedResponse> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = { ...request.headers };
      if (request.body) headers['content-length'] = String(request.body.length);
      const outgoing = http.request({ host: url.hostname, port: url.port, method: request.method, path: request.target, headers, agent, timeout: TIMEOUT_MS }, (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const flat: Record<string, string> = {};
          for (const [name, value] of Object.entries(incoming.headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
          resolve({ method: request.method, target: request.target, status: incoming.statusCode ?? 0, headers: flat, body: Buffer.concat(chunks) });
        });
        incoming.on('error', reject);
      });
      outgoing.on('timeout', () => outgoing.destroy(new Error('timeout')));
      outgoing.on('error', reject);
      outgoing.end(request.body);
    });

  const viaSocket = (request: ConcreteRequest): Promise<ObservedResponse> =>
    new Promise((resolve, reject) => {
      const socket = net.connect({ host: url.hostname, port: Number(url.port) });
      const chunks: Buffer[] = [];
      socket.setTimeout(TIMEOUT_MS, () => socket.destroy(new Error('timeout')));
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', (error) => (chunks.length ? finish() : reject(error)));
      socket.on('end', () => finish());
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        socket.destroy();
        try {
          resolve(parseRawResponse(request, Buffer.concat(chunks)));
        } catch (error) {
          reject(error);
        }
      };
      const target = request.absoluteForm ? `${baseUrl}${request.target}` : request.target;
      const lines = [`${request.method} ${target} HTTP/1.1`, `Host: ${url.host}`, 'Connection: close'];
      for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
      if (request.body) lines.push(`Content-Length: ${request.body.length}`);
      socket.write(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), request.body ?? Buffer.alloc(0)]));
    });

  return {
    async send(request) {
      try {
        if (request.transport === 'socket') return await viaSocket(request);
        if (request.transport === 'http') return await viaHttp(request);
        return await viaFetch(request);
      } catch (error) {
        return noResponse(request, error);
      }
    },
    close: () => agent.destroy(),
  };
}

/** An HTTP/1.1 response read to the end of the connection: status line, headers, body (chunked or not). */
export function parseRawResponse(request: ConcreteRequest, raw: Buffer): ObservedResponse {
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) throw new Error(`incomplete response: ${raw.subarray(0, 200).toString('latin1')}`);
  const [statusLine = '', ...headerLines] = raw.subarray(0, split).toString('latin1').split('\r\n');
  const status = Number(statusLine.split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] ? `${headers[name]}, ${value}` : value;
  }
  let body = raw.subarray(split + 4);
  if (request.method === 'HEAD' || status === 204 || status === 304) body = Buffer.alloc(0);
  else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  return { method: request.method, target: request.target, status, headers, body };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  while (offset < data.length) {
    const lineEnd = data.indexOf('\r\n', offset);
    if (lineEnd < 0) break;
    const size = parseInt(data.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!size) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
