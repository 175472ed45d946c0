import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { parse } from 'yaml';
import { describeInBrowser, launchChromium } from '../support/browser';
import { DATABASE_KINDS, TEST_API_KEY, reachableDatabaseKinds, startTestApp, testConfig, type DatabaseKind, type TestApp } from '../support/harness';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');
const fixtures = path.join(__dirname, 'consumer');
const apiVersion = (parse(readFileSync(path.join(root, 'api.yaml'), 'utf8')) as { info: { version: string } }).info.version;
const typescriptVersion = (JSON.parse(readFileSync(path.join(root, 'node_modules/typescript/package.json'), 'utf8')) as { version: string }).version;

/** npm's own variables from `npm test` would point the consumer's npm at this repository. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_(?!config_cache$|config_registry$)/i.test(name)));
  return { ...env, ...extra };
}

/** A child process's stdout, line by line, and its exit. */
function watchLines(child: ChildProcess): { lines: string[]; next(matches: (line: string) => boolean, timeoutMs: number): Promise<string>; exited: Promise<number | null> } {
  const lines: string[] = [];
  let pending = '';
  let wake: () => void = () => undefined;
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const complete = pending.split('\n');
    pending = complete.pop() ?? '';
    lines.push(...complete.filter(Boolean));
    wake();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    lines,
    exited,
    async next(matches, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = lines.find(matches);
        if (found !== undefined) return found;
        if (Date.now() > deadline) throw new Error(`No such line within ${timeoutMs} ms; stdout so far:\n${lines.join('\n')}`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 200);
        });
      }
    },
  };
}

/** Every Markdown file a reader of the repository meets: the client's README first, then the README and docs/. */
const MARKDOWN = ['src/client/README.md', 'README.md', ...readdirSync(path.join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** The TypeScript examples of every README and doc, each as a module of its own. */
function readmeExamples(): string[] {
  return MARKDOWN.flatMap((file) => {
    const text = readFileSync(path.join(root, file), 'utf8');
    return [...text.matchAll(/```(?:ts|typescript|tsx)\n([\s\S]*?)```/g)].map((match) => `${match[1]}\nexport {};\n`);
  });
}

/** The compiled file of the first README example that `matches`. */
function readmeExampleFile(matches: (source: string) => boolean): string {
  const index = readmeExamples().findIndex(matches);
  if (index < 0) throw new Error('no such README example');
  return `example-${index + 1}.js`;
}

async function typeCheck(consumer: string, tsconfig: string, extra: string[] = []): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run(process.execPath, [path.join(consumer, 'node_modules/typescript/lib/tsc.js'), '-p', tsconfig, ...extra], { cwd: consumer });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, output: failed.stdout };
  }
}

/** An HTTP server that takes 5 s: `/health/ready` sends its headers and the start of its body at once, the rest late; everything else answers late. */
async function startSlowServer(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const early = req.url?.startsWith('/health/ready') === true;
    if (early) res.writeHead(200, { 'Content-Type': 'application/json' }).write('{"status":');
    const late = setTimeout(() => (early ? res.end('"ready","checks":{}}') : res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"ok"}')), 5000);
    res.on('close', () => clearTimeout(late));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('the client package, installed from its tarball into a project of its own', () => {
  let tarball: string;
  let consumer: string;
  /** tsc's output for the ESM (with the README examples and the type tests) and CommonJS programs, which it also emits to run. */
  const compiled = { esm: '', cjs: '' };

  beforeAll(async () => {
    const { stdout } = await run('npm', ['run', 'build:client'], { cwd: root, env: cleanEnv(), maxBuffer: 16 << 20 });
    tarball = stdout.trim().split('\n').at(-1) ?? '';
    consumer = mkdtempSync(path.join(tmpdir(), 'agent-fleet-consumer-'));
    cpSync(fixtures, consumer, { recursive: true });
    writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    mkdirSync(path.join(consumer, 'readme'));
    readmeExamples().forEach((source, index) => writeFileSync(path.join(consumer, 'readme', `example-${index + 1}.ts`), source));
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', tarball, `typescript@${typescriptVersion}`], {
      cwd: consumer,
      env: cleanEnv(),
    });
    compiled.esm = (await typeCheck(consumer, 'tsconfig.esm.json')).output;
    compiled.cjs = (await typeCheck(consumer, 'tsconfig.cjs.json')).output;
  }, 240_000);

  afterAll(() => {
    if (consumer) rmSync(consumer, { recursive: true, force: true });
  });

  it('when built, then the last line names a tarball of @agent-fleet/client at the API version with ESM, CommonJS, declarations and openapi-fetch and eventsource-parser as its dependencies', () => {
    expect(path.basename(tarball)).toBe(`agent-fleet-client-${apiVersion}.tgz`);
    const installed = path.join(consumer, 'node_modules/@agent-fleet/client');
    const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: '@agent-fleet/client', version: apiVersion, type: 'module', dependencies: { 'openapi-fetch': expect.any(String), 'eventsource-parser': expect.any(String) } });
    expect(Object.keys(manifest['dependencies'] as object)).toEqual(['openapi-fetch', 'eventsource-parser']);
    expect(manifest['devDependencies']).toBeUndefined();
    const exports = (manifest['exports'] as Record<string, { import: Record<string, string>; require: Record<string, string> }>)['.'];
    for (const target of [exports?.import.types, exports?.import.default, exports?.require.types, exports?.require.default]) {
      expect(existsSync(path.join(installed, target ?? 'missing'))).toBe(true);
    }
    expect(readFileSync(path.join(installed, exports?.require.default ?? ''), 'utf8')).toMatch(/require\("openapi-fetch"\)/);
    expect(readFileSync(path.join(path.dirname(path.join(installed, exports?.require.default ?? '')), 'events.js'), 'utf8')).toMatch(/require\("eventsource-parser"\)/);
    expect(readFileSync(path.join(installed, exports?.import.default ?? ''), 'utf8')).toMatch(/from 'openapi-fetch'/);
    expect(readFileSync(path.join(installed, 'README.md'), 'utf8')).toMatch(/^# @agent-fleet\/client/);
    // Only the client: openapi-fetch and its type helpers beside it, nothing of the service.
    expect(readFileSync(path.join(consumer, 'package-lock.json'), 'utf8')).not.toMatch(/express|knex|better-sqlite3/);
  });

  it('when the consumer type-checks under strict nodenext (ESM, with the README examples), CommonJS and bundler resolution, then everything compiles', async () => {
    expect(compiled.esm).toBe('');
    expect(readmeExamples().length).toBeGreaterThanOrEqual(8);
    expect(compiled.cjs).toBe('');
    expect((await typeCheck(consumer, 'tsconfig.bundler.json')).output).toBe('');
  });

  it('when every TypeScript example of every README and doc is compiled with plain `tsc --strict` (as a user\'s project has it), then each compiles', async () => {
    expect((await typeCheck(consumer, 'tsconfig.strict.json')).output).toBe('');
  });

  it('when a wrong path, method, body field, enum value, query parameter, field name or error code is written, then it does not compile', async () => {
    const source = readFileSync(path.join(consumer, 'types/compile-errors.ts'), 'utf8');
    const expected = source.split('\n').flatMap((line, index) => (/\/\/ @ts-expect-error/.test(line) ? [index + 2] : []));
    expect(expected.length).toBeGreaterThanOrEqual(12);
    writeFileSync(path.join(consumer, 'types/compile-errors-unmarked.ts'), source.replace(/\/\/ @ts-expect-error/g, '// expected error:'));
    try {
      const unmarked = await typeCheck(consumer, 'tsconfig.esm.json', ['--noEmit']);
      const failing = [...unmarked.output.matchAll(/compile-errors-unmarked\.ts\((\d+),\d+\): error/g)].map((match) => Number(match[1]));
      expect(unmarked.code).not.toBe(0);
      expect([...new Set(failing)].sort((a, b) => a - b)).toEqual(expected);
    } finally {
      rmSync(path.join(consumer, 'types/compile-errors-unmarked.ts'));
    }
  });

  it('when a request is cancelled at 300 ms while garbage collections run (node --expose-gc), then it rejects at once, before the answer, in the body or by the client\'s own timeout', async () => {
    const slow = await startSlowServer();
    try {
      const { stdout } = await run(process.execPath, ['--expose-gc', path.join(consumer, 'out/esm/esm/cancellation.js')], { cwd: consumer, env: cleanEnv({ SLOW_URL: slow.baseUrl }) });
      const report = JSON.parse(stdout) as Record<string, { outcome: string; ms: number }>;
      expect(Object.fromEntries(Object.entries(report).map(([name, { outcome }]) => [name, outcome]))).toEqual({ beforeHeaders: 'AbortError', duringBody: 'AbortError', timeout: 'TimeoutError' });
      // Within a second of the 300 ms, far from the 5 s the server takes.
      for (const { ms } of Object.values(report)) expect(ms).toBeLessThan(1300);
    } finally {
      await slow.close();
    }
  });

  describe.each(DATABASE_KINDS)('against a real service (%s)', (kind: DatabaseKind) => {
    const reachable = reachableDatabaseKinds().includes(kind);
    let service: TestApp;
    let limited: TestApp;
    let env: Record<string, string>;

    beforeAll(async () => {
      if (!reachable) return;
      service = await startTestApp(kind);
      // The consumer calls with the service key: its budget is the one made small.
      limited = await startTestApp(kind, { rateLimits: { ...testConfig().rateLimits, serviceKey: { windowMs: 1000, max: 2 } } });
      env = { BASE_URL: await service.listen(), LIMITED_URL: await limited.listen(), API_KEY: TEST_API_KEY };
    }, 120_000);
    afterAll(async () => {
      await service?.close();
      await limited?.close();
    });

    (reachable ? it : it.skip)('when the ESM program runs, then it signs up, signs in, creates, pages, filters, meets a typed 404, 409 and 412, waits out a 429 and revalidates with 304', async () => {
      const { stdout } = await run(process.execPath, [path.join(consumer, 'out/esm/esm/journey.js')], { cwd: consumer, env: cleanEnv(env) });
      const report = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
      expect(report['signUp']).toEqual({ status: 201, email: expect.stringMatching(/@example\.com$/), role: 'user' });
      expect(report['token']).toEqual({ type: 'bearer', expiresIn: expect.any(Number), refresh: 'string' });
      expect(report['wrongPassword']).toEqual({ status: 400, error: 'invalid_grant' });
      expect(report['me']).toBe(true);
      expect(report['created']).toEqual({ status: 201, location: true, status_: 'idle' });
      expect(report['pagination']).toEqual({ pageSizes: [10, 10, 5], count: 25, sorted: true, tasks: 7 });
      expect(report['filtered']).toEqual([
        { keys: 'id,name,type', name: 'agent-23', type: 'type_c' },
        { keys: 'id,name,type', name: 'agent-22', type: 'type_b' },
        { keys: 'id,name,type', name: 'agent-20', type: 'type_c' },
      ]);
      expect(report['notFound']).toEqual({ status: 404, code: 'NOT_FOUND' });
      expect(report['conflict']).toEqual({ status: 409, code: 'CONFLICT' });
      expect(report['preconditionFailed']).toEqual({ status: 412, code: 'PRECONDITION_FAILED' });
      expect(report['thrown']).toEqual({ status: 404, message: '404 not_found: Agent not found' });
      expect(report['cache']).toEqual({ statuses: [200, 304], conditional: [false, true], same: true, name: 'agent-01' });
      const rateLimited = report['rateLimited'] as { statuses: number[]; retries: { cause: unknown; delayMs: number }[]; elapsedMs: number };
      expect(rateLimited.statuses).toEqual([200, 200, 200, 200]);
      expect(rateLimited.retries.length).toBeGreaterThanOrEqual(1);
      for (const retry of rateLimited.retries) expect(retry).toEqual({ cause: { status: 429 }, delayMs: 1000 });
      expect(rateLimited.elapsedMs).toBeGreaterThanOrEqual(900);
      expect(report['aborted']).toBe('AbortError');
    });

    (reachable ? it : it.skip)(
      'when a worker process is killed (SIGKILL) mid-task, then after its lease expires the README\'s worker finishes that task with the others, and SIGTERM stops it gracefully',
      async () => {
        const api = service.http;
        const agent = (await api.post('/api/v1/agents').send({ name: 'counter', type: 'type_a' }).expect(201)).body.data as { id: string };
        const key = (await api.post(`/api/v1/agents/${agent.id}/keys`).send({ name: 'workers', scopes: ['tasks:work'] }).expect(201)).body.data as { id: string; secret: string };
        const createTask = async (title: string, text: string) =>
          ((await api.post(`/api/v1/agents/${agent.id}/tasks`).send({ title, input: { text } }).expect(201)).body.data as { id: string }).id;
        const readTask = async (id: string) => (await api.get(`/api/v1/agents/${agent.id}/tasks/${id}`).expect(200)).body.data as Record<string, unknown>;
        const children: ChildProcess[] = [];
        try {
          const abandoned = await createTask('abandoned', 'one two three');
          const stuck = spawn(process.execPath, [path.join(consumer, 'out/esm/esm/worker.js')], {
            cwd: consumer,
            env: cleanEnv({ BASE_URL: env['BASE_URL'] ?? '', AGENT_KEY: key.secret, AGENT_ID: agent.id, TTL_SECONDS: '5' }),
          });
          children.push(stuck);
          const stuckOutput = watchLines(stuck);
          const claimed = JSON.parse(await stuckOutput.next((line) => line.includes('"claimed"'), 30_000)) as { taskId: string };
          expect(claimed.taskId).toBe(abandoned);
          expect((await readTask(abandoned))['status']).toBe('running');
          stuck.kill('SIGKILL');
          expect(await stuckOutput.exited).toBeNull();

          // The README's worker, with this service, key and agent, and its SIGTERM line switched on.
          const source = readFileSync(path.join(consumer, 'out/esm/readme', readmeExampleFile((example) => example.includes('createWorker('))), 'utf8');
          const substitutions: [string, string][] = [
            ["'https://fleet.example.com'", JSON.stringify(env['BASE_URL'])],
            ["'the key id'", JSON.stringify(key.id)],
            ["'afk_the key secret'", JSON.stringify(key.secret)],
            ["'the agent id'", JSON.stringify(agent.id)],
            ["// process.once('SIGTERM', stop);", "process.once('SIGTERM', stop);"],
          ];
          let program = source;
          for (const [from, to] of substitutions) {
            expect(program).toContain(from);
            program = program.replace(from, to);
          }
          writeFileSync(path.join(consumer, 'out/esm/readme/worker-run.js'), program);
          const counted = await createTask('counted', 'alpha beta');
          const empty = await createTask('empty', '');
          const readme = spawn(process.execPath, [path.join(consumer, 'out/esm/readme/worker-run.js')], { cwd: consumer, env: cleanEnv() });
          children.push(readme);
          const readmeOutput = watchLines(readme);
          await readmeOutput.next((line) => line === `succeeded ${abandoned}`, 60_000);
          await readmeOutput.next((line) => line === `succeeded ${counted}`, 10_000);
          await readmeOutput.next((line) => line === `failed ${empty}`, 10_000);

          expect(await readTask(abandoned)).toMatchObject({ status: 'succeeded', attempts: 2, result: { words: 3 }, lease_id: null });
          expect(await readTask(counted)).toMatchObject({ status: 'succeeded', attempts: 1, result: { words: 2 }, progress: { percent: 50, message: 'counting counted' } });
          expect(await readTask(empty)).toMatchObject({ status: 'failed', attempts: 1, error: 'no text to count' });

          readme.kill('SIGTERM');
          expect(await readmeOutput.exited).toBe(0);
          expect(readmeOutput.lines.filter((line) => line.startsWith('error'))).toEqual([]);
        } finally {
          for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        }
      },
      120_000,
    );

    (reachable ? it : it.skip)('when the ESM program follows an agent\'s events with an agent key, then it sees its own creates in order, stops at its signal and at a break, and its POSTs carried one fresh Idempotency-Key each', async () => {
      const { stdout } = await run(process.execPath, [path.join(consumer, 'out/esm/esm/events.js')], { cwd: consumer, env: cleanEnv(env), timeout: 30_000 });
      expect(JSON.parse(stdout)).toEqual({
        titles: ['one', 'two', 'three'],
        types: ['task.created'],
        agents: [true],
        increasing: true,
        afterBreak: 'task.created',
        idempotencyKeys: [true, true, true],
        distinctKeys: 3,
      });
    });

    (reachable ? it : it.skip)('when the CommonJS program runs, then require() loads the CommonJS build and its calls are typed and succeed', async () => {
      const compiled = readFileSync(path.join(consumer, 'out/cjs/cjs/journey.cjs'), 'utf8');
      expect(compiled).toMatch(/require\("@agent-fleet\/client"\)/);
      const { stdout } = await run(process.execPath, [path.join(consumer, 'out/cjs/cjs/journey.cjs')], { cwd: consumer, env: cleanEnv(env) });
      expect(JSON.parse(stdout)).toEqual({ created: 'from-cjs', read: 'idle', notFound: 'Agent not found', thrown: '404' });
    });
  });

  describeInBrowser('in a browser bundle', () => {
    it('when esbuild bundles the package for the browser and Chromium runs it on the service origin, then it creates, pages and revalidates', async () => {
      const bundle = await build({
        absWorkingDir: consumer,
        entryPoints: ['browser/main.ts'],
        bundle: true,
        platform: 'browser',
        format: 'iife',
        write: false,
        logLevel: 'silent',
      });
      const code = bundle.outputFiles[0]?.text ?? '';
      expect(code).not.toMatch(/require\(|node:/);
      const service = await startTestApp('sqlite');
      const browser = await launchChromium();
      try {
        const origin = await service.listen();
        const page = await browser.newPage();
        await page.goto(`${origin}/`);
        await page.evaluate(code);
        const result = await page.evaluate(async (apiKey) => (globalThis as unknown as { runClient(key: string): Promise<unknown> }).runClient(apiKey), TEST_API_KEY);
        expect(result).toEqual({ created: 'from-the-browser', listed: true, cached: true });
      } finally {
        await browser.close();
        await service.close();
      }
    });
  });
});
