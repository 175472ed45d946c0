import { METHODS } from 'node:http';
import { sendRaw } from '../support/raw-http';
import { startTestApp, TEST_METRICS_TOKEN, type TestApp } from '../support/harness';
import { listeningPort, spawnServer, type ServerProcess } from '../support/server-process';
import { parseSamples, type Sample } from '../support/prometheus';


function valueOf(samples: Sample[], name: string, labels: Record<string, string>): number | undefined {
  const found = samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value;
}

describe('GET /metrics', () => {
  let app: TestApp;
  const ids: string[] = [];
  const postBody = JSON.stringify({ name: 'measured', type: 'type_a' });

  beforeAll(async () => {
    app = await startTestApp('sqlite');
    for (let i = 0; i < 2; i++) {
      const res = await app.http.post('/agents').set('Content-Type', 'application/json').send(postBody);
      expect(res.status).toBe(201);
      ids.push(res.body.id as string);
    }
    for (const id of ids) await app.http.get(`/agents/${id}`).expect(200);
    await app.http.get('/agents/00000000-0000-7000-8000-000000000000').expect(404);
    await app.http.get('/agents?limit=5').expect(200);
    await app.anonymous.get(`/agents/${ids[0]}`).expect(401);
    await app.anonymous.get(`/unknown/${ids[0]}`).expect(404);
  });
  afterAll(async () => {
    await app.close();
  });

  const scrape = async () => {
    const res = await app.anonymous.get('/metrics').set('Authorization', `Bearer ${TEST_METRICS_TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    return { text: res.text, samples: parseSamples(res.text) };
  };

  it('when requests were served, then the latency histogram has samples by method, route template and status class', async () => {
    const { text, samples } = await scrape();
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    const byRead = { method: 'GET', route: '/agents/{agent_id}' };
    expect(valueOf(samples, 'http_request_duration_seconds_count', { ...byRead, status_class: '2xx' })).toBe(2);
    expect(valueOf(samples, 'http_request_duration_seconds_count', { ...byRead, status_class: '4xx' })).toBe(2);
    expect(valueOf(samples, 'http_request_duration_seconds_count', { method: 'POST', route: '/agents', status_class: '2xx' })).toBe(2);
    expect(valueOf(samples, 'http_request_duration_seconds_count', { method: 'GET', route: '/agents', status_class: '2xx' })).toBe(1);
    expect(valueOf(samples, 'http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status_class: '4xx' })).toBe(1);
    expect(valueOf(samples, 'http_request_duration_seconds_bucket', { ...byRead, status_class: '2xx', le: '+Inf' })).toBe(2);
    expect(valueOf(samples, 'http_request_duration_seconds_sum', { ...byRead, status_class: '2xx' })).toBeGreaterThan(0);
    // Buckets are cumulative.
    const buckets = samples.filter((s) => s.name === 'http_request_duration_seconds_bucket' && s.labels.route === '/agents/{agent_id}' && s.labels.status_class === '2xx');
    expect(buckets.length).toBeGreaterThan(5);
    expect(buckets.map((s) => s.value)).toEqual([...buckets.map((s) => s.value)].sort((a, b) => a - b));
  });

  it('when requests were served, then http_requests_total counts them by route template and status', async () => {
    const { text, samples } = await scrape();
    expect(text).toContain('# TYPE http_requests_total counter');
    expect(valueOf(samples, 'http_requests_total', { method: 'POST', route: '/agents', status: '201' })).toBe(2);
    expect(valueOf(samples, 'http_requests_total', { method: 'GET', route: '/agents/{agent_id}', status: '200' })).toBe(2);
    expect(valueOf(samples, 'http_requests_total', { method: 'GET', route: '/agents/{agent_id}', status: '404' })).toBe(1);
    expect(valueOf(samples, 'http_requests_total', { method: 'GET', route: '/agents/{agent_id}', status: '401' })).toBe(1);
    expect(valueOf(samples, 'http_requests_total', { method: 'GET', route: '/agents', status: '200' })).toBe(1);
  });

  it('when bodies were posted, then http_request_size_bytes records their Content-Length by route', async () => {
    const { text, samples } = await scrape();
    expect(text).toContain('# TYPE http_request_size_bytes histogram');
    const byCreate = { method: 'POST', route: '/agents' };
    expect(valueOf(samples, 'http_request_size_bytes_count', byCreate)).toBe(2);
    expect(valueOf(samples, 'http_request_size_bytes_sum', byCreate)).toBe(2 * Buffer.byteLength(postBody));
    expect(valueOf(samples, 'http_request_size_bytes_bucket', { ...byCreate, le: '100' })).toBe(2);
  });

  it('when /metrics was scraped, then the scrape itself is counted on the next one', async () => {
    await scrape();
    const { samples } = await scrape();
    expect(valueOf(samples, 'http_requests_total', { method: 'GET', route: '/metrics', status: '200' })).toBeGreaterThanOrEqual(1);
  });

  it('when ids and unknown paths were requested, then no id or raw path appears in any label (low cardinality)', async () => {
    await scrape();
    const { text, samples } = await scrape();
    for (const id of ids) expect(text).not.toContain(id);
    expect(text).not.toContain('00000000-0000-7000-8000-000000000000');
    expect(text).not.toContain('/unknown/');
    const routes = new Set(samples.filter((s) => s.name.startsWith('http_')).map((s) => s.labels.route));
    expect([...routes].sort()).toEqual(['/agents', '/agents/{agent_id}', '/metrics', 'unmatched']);
    const statusClasses = new Set(samples.map((s) => s.labels.status_class).filter(Boolean));
    for (const statusClass of statusClasses) expect(statusClass).toMatch(/^[1-5]xx$/);
  });
});

describe('GET /metrics on the API listener', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('sqlite');
  });
  afterAll(async () => {
    await app.close();
  });

  const refusal = (message: string) => ({ error: 'unauthorized', message, detail: message });

  it('when no credential is sent, then 401 in the root error shape with WWW-Authenticate: Bearer, and no metrics', async () => {
    const res = await app.anonymous.get('/metrics');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(refusal('Not authenticated'));
    expect(res.text).not.toContain('http_requests_total');
  });

  it('when a wrong token is sent (shorter, same length, longer, a user\'s JWT, another scheme), then 401 each time', async () => {
    const sameLength = `${TEST_METRICS_TOKEN.slice(0, -1)}${TEST_METRICS_TOKEN.endsWith('x') ? 'y' : 'x'}`;
    const attempts = [
      `Bearer ${TEST_METRICS_TOKEN.slice(0, -1)}`,
      `Bearer ${sameLength}`,
      `Bearer ${TEST_METRICS_TOKEN}x`,
      `Bearer ${app.user.token}`,
      `Basic ${Buffer.from(`metrics:${TEST_METRICS_TOKEN}`).toString('base64')}`,
      TEST_METRICS_TOKEN,
      'Bearer',
    ];
    for (const authorization of attempts) {
      const res = await app.anonymous.get('/metrics').set('Authorization', authorization);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token", error_description="/);
      expect(res.body).toEqual(refusal('Could not validate credentials'));
    }
    // An API key is no metrics credential either.
    expect((await app.anonymous.get('/metrics').set('X-API-Key', app.config.auth.apiKeys[0] ?? '')).status).toBe(401);
  });

  it('when the metrics token is sent, then 200 with the Prometheus text (the scheme name in any case)', async () => {
    for (const scheme of ['Bearer', 'bearer']) {
      const res = await app.anonymous.get('/metrics').set('Authorization', `${scheme} ${TEST_METRICS_TOKEN}`);
      expect(res.status).toBe(200);
      expect(res.text).toContain('# TYPE http_requests_total counter');
    }
  });

  it('when no METRICS_TOKEN is configured, then /metrics is 404 exactly as an unknown path, with or without a token', async () => {
    const open = await startTestApp('sqlite', { metrics: { host: '127.0.0.1', agentLabelLimit: 20 } });
    try {
      const unknown = await open.anonymous.get('/no-such-path');
      for (const authorization of [undefined, `Bearer ${TEST_METRICS_TOKEN}`, 'Bearer ']) {
        const request = open.anonymous.get('/metrics');
        const res = await (authorization === undefined ? request : request.set('Authorization', authorization));
        expect(res.status).toBe(404);
        expect(res.body).toEqual(unknown.body);
        expect(res.text).not.toContain('http_requests_total');
      }
    } finally {
      await open.close();
    }
  });
});

describe('metric labels fed by the request', () => {
  let app: TestApp;
  let base: string;
  beforeAll(async () => {
    app = await startTestApp('sqlite');
    base = await app.listen();
  });
  afterAll(async () => {
    await app.close();
  });

  const KNOWN = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'OTHER'];
  const labelValues = (samples: Sample[], label: string) => new Set(samples.filter((s) => s.labels[label] !== undefined).map((s) => s.labels[label] as string));

  it('when every method Node parses and made-up ones are sent, then the method label stays in the known set plus OTHER', async () => {
    // Node's parser lets ACL, PROPFIND, M-SEARCH and the rest through to the app; FOOBAR and FROB it refuses itself.
    const odd = [...METHODS.filter((method) => !KNOWN.includes(method) && method !== 'CONNECT'), 'FOOBAR', 'FROB', 'PROPFINDX'];
    for (const method of odd) {
      for (const target of ['/agents', `/made-up-${method.toLowerCase()}`]) {
        const res = await sendRaw(base, `${method} ${target} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }
    }
    const text = await app.scrapeMetrics();
    const samples = parseSamples(text);
    expect([...labelValues(samples, 'method')].filter((method) => !KNOWN.includes(method))).toEqual([]);
    for (const method of odd) expect(text).not.toContain(`"${method}"`);
    const others = samples.filter((s) => s.name === 'http_requests_total' && s.labels.method === 'OTHER').reduce((sum, s) => sum + s.value, 0);
    expect(others).toBe(2 * (odd.length - 3));
    expect(valueOf(samples, 'http_requests_total', { method: 'OTHER', route: 'unmatched', status: '404' })).toBe(odd.length - 3);
    expect(valueOf(samples, 'http_requests_total', { method: 'OTHER', route: 'unmatched', status: '405' })).toBe(odd.length - 3);
    // What the parser refused is counted by reason, never by the method or path it carried.
    expect(valueOf(samples, 'http_rejected_requests_total', { reason: 'HPE_INVALID_METHOD', status: '404' })).toBe(3);
    expect(valueOf(samples, 'http_rejected_requests_total', { reason: 'HPE_INVALID_METHOD', status: '405' })).toBe(3);
  });

  it('when many distinct unknown paths are requested, then they share one route label', async () => {
    for (let i = 0; i < 20; i++) await app.anonymous.get(`/random-${i}/${'x'.repeat(i)}`).expect(404);
    const samples = parseSamples(await app.scrapeMetrics());
    const routes = [...labelValues(samples, 'route')];
    expect(routes.filter((route) => route !== 'unmatched' && !route.startsWith('/'))).toEqual([]);
    expect(routes.filter((route) => route.startsWith('/random'))).toEqual([]);
    expect(valueOf(samples, 'http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(20);
  });
});

describe('the metrics listener of the real server process (METRICS_PORT)', () => {
  let server: ServerProcess | undefined;
  afterEach(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  });

  it('when METRICS_PORT is set, then metrics are served on that port without a token and not on the API port, and SIGTERM closes both', async () => {
    server = spawnServer({
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      PORT: '0',
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      DATABASE_URL: 'sqlite::memory:',
      JWT_SECRET: 'ops-metrics-jwt-secret-at-least-32-bytes-long',
    });
    const apiPort = await listeningPort(server);
    const line = await server.waitForLog((entry) => typeof entry.metricsPort === 'number');
    expect(line.metricsHost).toBe('127.0.0.1');
    const metricsBase = `http://127.0.0.1:${line.metricsPort as number}`;
    const apiBase = `http://127.0.0.1:${apiPort}`;

    await fetch(`${apiBase}/health`);
    const scraped = await fetch(`${metricsBase}/metrics`);
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(await scraped.text()).toMatch(/^http_requests_total\{method="GET",route="\/health",status="200"\} 1$/m);
    const head = await fetch(`${metricsBase}/metrics`, { method: 'HEAD' });
    expect(head.status).toBe(200);

    // The metrics listener serves /metrics and nothing else: none of the API.
    for (const path of ['/', '/health', '/agents', '/metrics/', '/openapi.json']) {
      const res = await fetch(`${metricsBase}${path}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: 'not_found', message: 'Not Found', detail: 'Not Found' });
    }
    const post = await fetch(`${metricsBase}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');

    // The API listener, with no METRICS_TOKEN, does not serve them.
    const onApi = await fetch(`${apiBase}/metrics`);
    expect(onApi.status).toBe(404);
    expect(await onApi.text()).not.toContain('http_requests_total');

    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    await expect(fetch(`${metricsBase}/metrics`)).rejects.toThrow();
  });
});
