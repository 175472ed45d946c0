import { connect } from 'node:net';
import { startTestApp, type TestApp } from '../support/harness';
import { listeningPort, spawnServer, type ServerProcess } from '../support/server-process';

interface Dribbled {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** Milliseconds from the first byte sent to the first byte of the answer, and to the socket's close. */
  answeredAfterMs: number;
  closedAfterMs: number;
  /** Bytes the client managed to send before the server cut it off. */
  dribbled: number;
}

/**
 * A slow client: sends `head` at once, then one `drip` every `everyMs` until the server answers
 * and closes the connection (or `giveUpMs` passes).
 */
function dribble(baseUrl: string, head: string, drip: string, everyMs: number, giveUpMs = 20_000): Promise<Dribbled> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const started = Date.now();
    const chunks: Buffer[] = [];
    let answeredAt: number | undefined;
    let dribbled = 0;
    const timer = setInterval(() => {
      if (!socket.writable) return;
      socket.write(drip);
      dribbled += 1;
    }, everyMs);
    const giveUp = setTimeout(() => socket.destroy(new Error(`the server still holds the connection after ${giveUpMs} ms`)), giveUpMs);
    socket.on('data', (chunk) => {
      answeredAt ??= Date.now();
      chunks.push(chunk);
    });
    let failure: Error | undefined;
    // The server resets a connection that goes on sending after its answer: what matters is what arrived.
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') failure = error;
    });
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      if (failure) return reject(failure);
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) return reject(new Error(`no answer: ${JSON.stringify(text)}`));
      const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: JSON.parse(text.slice(split + 4)),
        answeredAfterMs: (answeredAt ?? Date.now()) - started,
        closedAfterMs: Date.now() - started,
        dribbled,
      });
    });
    socket.write(head);
  });
}

describe('slow clients (requestTimeout 1000 ms, headersTimeout 600 ms)', () => {
  let app: TestApp;
  let base: string;
  beforeAll(async () => {
    app = await startTestApp('sqlite', { http: { requestTimeoutMs: 1000, headersTimeoutMs: 600, keepAliveTimeoutMs: 5000 } });
    base = await app.listen();
  });
  afterAll(async () => {
    await app.close();
  });

  it('when a body of 1000 bytes is dribbled a byte every 200 ms to /api, then 408 REQUEST_TIMEOUT in the /api envelope and the socket is closed within seconds', async () => {
    const head = 'POST /api/v1/users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nX-Request-ID: slow-upload-1\r\n\r\n{';
    const res = await dribble(base, head, ' ', 200);
    expect(res.status).toBe(408);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers.connection).toBe('close');
    // The request id the app gave the request in progress.
    expect(res.headers['x-request-id']).toBe('slow-upload-1');
    expect(res.body).toEqual({ error: { code: 'REQUEST_TIMEOUT', message: 'The request was not received in time', requestId: 'slow-upload-1' } });
    expect(res.answeredAfterMs).toBeGreaterThanOrEqual(900);
    expect(res.answeredAfterMs).toBeLessThan(3000);
    expect(res.closedAfterMs).toBeLessThan(5000);
    expect(res.dribbled).toBeLessThan(25);
    const rejected = await app.metrics.rejectedRequests.get();
    expect(rejected.values.find((value) => value.labels.reason === 'ERR_HTTP_REQUEST_TIMEOUT' && value.labels.status === '408')?.value).toBeGreaterThanOrEqual(1);
  });

  it('when a body is dribbled to the root surface, then 408 in the root error shape', async () => {
    const head = `POST /agents HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${app.user.token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`;
    const res = await dribble(base, head, ' ', 200);
    expect(res.status).toBe(408);
    expect(res.body).toEqual({ error: 'request_timeout', message: 'The request was not received in time' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.closedAfterMs).toBeLessThan(5000);
  });

  it('when headers are dribbled a line every 200 ms (slowloris), then 408 and the socket is closed within seconds', async () => {
    const res = await dribble(base, 'GET /agents HTTP/1.1\r\nHost: x\r\n', 'X-Slow: 1\r\n', 200);
    expect(res.status).toBe(408);
    expect(res.body).toEqual({ error: 'request_timeout', message: 'The request was not received in time' });
    expect(res.answeredAfterMs).toBeGreaterThanOrEqual(500);
    expect(res.answeredAfterMs).toBeLessThan(2500);
    expect(res.closedAfterMs).toBeLessThan(5000);
  });

  it('when a connection is opened and nothing is sent, then it is answered 408 and closed within seconds', async () => {
    const res = await dribble(base, '', '', 200);
    expect(res.status).toBe(408);
    expect(res.closedAfterMs).toBeLessThan(5000);
  });

  it('when a request arrives in time, then it is served as usual and the connection stays open for the next one', async () => {
    const res = await fetch(`${base}/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('keep-alive')).toBe('timeout=5');
  });
});

describe('slow clients against the real server process', () => {
  let server: ServerProcess | undefined;
  afterEach(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  });

  it('when HTTP_*_TIMEOUT_MS are set, then server.ts applies them: a slowloris is cut at the headers timeout, keep-alive is announced', async () => {
    server = spawnServer({
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: 'sqlite::memory:',
      JWT_SECRET: 'ops-slow-clients-jwt-secret-at-least-32-bytes',
      HTTP_REQUEST_TIMEOUT_MS: '2000',
      HTTP_HEADERS_TIMEOUT_MS: '1000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '7000',
    });
    const base = `http://127.0.0.1:${await listeningPort(server)}`;
    expect((await fetch(`${base}/health`)).headers.get('keep-alive')).toBe('timeout=7');
    const res = await dribble(base, 'GET /health HTTP/1.1\r\nHost: x\r\n', 'X-Slow: 1\r\n', 200);
    expect(res.status).toBe(408);
    expect(res.answeredAfterMs).toBeLessThan(3000);
    expect(res.closedAfterMs).toBeLessThan(5000);
  });
});
