import { startTestApp, type TestApp } from '../support/harness';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses Prometheus text exposition (the subset prom-client writes). */
function parseSamples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels: Record<string, string> = {};
      for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[key ?? ''] = value ?? '';
      return { name: match[1] ?? '', labels, value: Number(match[3]) };
    });
}

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
    const res = await app.anonymous.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
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
