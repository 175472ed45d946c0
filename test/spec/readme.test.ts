/**
 * The README and docs/ are the repository's front door: every link in them leads somewhere, they
 * speak only of what a reader can open, and the README's curl walk runs against the real service.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestApp, type TestApp } from '../support/harness';
import { killServers, listeningPort, makeTempDir, serviceEnv, spawnServer, type ServerProcess } from '../support/server-process';
import { assetPath } from '../support/browser-assets';

const ROOT = path.resolve(__dirname, '..', '..');
const README = path.join(ROOT, 'README.md');
const DOCS = path.join(ROOT, 'docs');
const documents = (): string[] => [README, ...readdirSync(DOCS).filter((name) => name.endsWith('.md')).map((name) => path.join(DOCS, name))];
const relative = (file: string): string => path.relative(ROOT, file);

/** The lines of a Markdown file that are prose: fenced code blocks become empty lines. */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8');
  const anchors = new Set<string>();
  for (const line of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const slug = (heading[1] ?? '').toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-');
    let anchor = slug;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${slug}-${n}`;
    anchors.add(anchor);
  }
  for (const [, id] of text.matchAll(/<a id="([^"]+)"><\/a>/g)) anchors.add(id ?? '');
  return anchors;
}

/** Every Markdown link target in the prose (inline code and code blocks are not links). */
function linksOf(file: string): string[] {
  const prose = proseLines(readFileSync(file, 'utf8')).join('\n').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
}

/** The reasons a link cannot be followed from `file`, or none. */
function brokenLink(file: string, target: string): string | undefined {
  if (/^(https?:|mailto:)/.test(target)) return undefined;
  if (target.startsWith('/')) return 'absolute path: links in the repository are relative';
  const [pathPart = '', anchor] = target.split('#');
  const resolved = pathPart === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(pathPart));
  if (!existsSync(resolved)) return `no file ${relative(resolved)}`;
  if (anchor !== undefined) {
    if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) return 'an anchor into a file that is not Markdown';
    if (!anchorsOf(resolved).has(anchor)) return `no heading #${anchor} in ${relative(resolved)}`;
  }
  return undefined;
}

/** References a reader of the repository cannot follow. */
const UNFOLLOWABLE = [
  { pattern: /\bDESIGN\b/, why: 'a design document outside the repository' },
  { pattern: /\bissues?\s*#?\d+/i, why: 'an issue number' },
  { pattern: /(^|[\s(])#\d+\b/, why: 'an issue number' },
  { pattern: /\bthe specification\b|\bspecification's\b/i, why: 'a specification the reader cannot open' },
];

describe('the README and docs/', () => {
  it('when the README is read, then it is a front door: under 250 lines, with the walk, the surfaces and the links to docs/', () => {
    const text = readFileSync(README, 'utf8');
    expect(text.split('\n').length).toBeLessThan(250);
    expect(text).toContain('npm ci && npm start');
    expect(text).toContain('npm ci && npm test');
    // The versions it names are the ones package.json declares.
    expect(text).toContain('Node 20.19+, 22.12+ and 24');
    expect(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).engines.node).toBe('^20.19 || ^22.12 || ^24');
    expect(text).toContain('<!-- walk -->');
    expect(text).toContain('<!-- work -->');
    expect(text).toContain('<!-- watch -->');
    for (const doc of ['operating', 'security', 'testing', 'benchmark', 'reviewing-api-changes', 'http', 'events']) expect(text).toContain(`(docs/${doc}.md)`);
  });

  it('when every relative link of README.md and docs/*.md is followed, then it reaches an existing file, and heading if it names one', () => {
    const broken: string[] = [];
    let links = 0;
    for (const file of documents()) {
      for (const target of linksOf(file)) {
        links++;
        const why = brokenLink(file, target);
        if (why !== undefined) broken.push(`${relative(file)}: ${target}: ${why}`);
      }
    }
    expect(broken).toEqual([]);
    expect(links).toBeGreaterThan(20);
  });

  it('when the link check meets a missing file or heading, then it reports it (the check can fail)', () => {
    expect(brokenLink(README, 'docs/nowhere.md')).toMatch(/no file/);
    expect(brokenLink(README, 'docs/operating.md#no-such-heading')).toMatch(/no heading/);
    expect(brokenLink(README, '/docs/operating.md')).toMatch(/absolute/);
    expect(brokenLink(README, 'docs/operating.md#every-core-web_concurrency')).toBeUndefined();
  });

  it('when README.md and docs/*.md are read, then no reference points outside the repository\'s reach (design documents, issue numbers, an unnamed specification)', () => {
    const found: string[] = [];
    for (const file of documents()) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          for (const { pattern, why } of UNFOLLOWABLE) if (pattern.test(line)) found.push(`${relative(file)}:${index + 1}: ${why}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });
});

/** The ```sh block that follows `<!-- name -->` in the README. */
function markedBlock(name: string): string {
  const match = new RegExp(`<!-- ${name} -->\\s*\\n\`\`\`sh\\n([\\s\\S]*?)\\n\`\`\``).exec(readFileSync(README, 'utf8'));
  if (!match?.[1]) throw new Error(`README.md has no \`\`\`sh block after <!-- ${name} -->`);
  return match[1];
}

/** Lines that are one bare word (`running`, `idle`): the walk's single values, printed or shown as `# value`. */
const bareWords = (lines: string[]): string[] => lines.map((line) => line.trim()).filter((line) => /^[a-z_]+$/.test(line));

describe('the README\'s curl walk, run against the real service', () => {
  const METRICS_TOKEN = 'readme-walk-metrics-token-0123456789abcdef';
  let server: ServerProcess;
  let base: string;
  let temp: ReturnType<typeof makeTempDir>;

  beforeAll(async () => {
    temp = makeTempDir();
    server = spawnServer(
      serviceEnv('readme-walk-api-key-0123456789', { DATABASE_URL: `sqlite:${path.join(temp.dir, 'walk.sqlite')}`, METRICS_TOKEN }),
    );
    base = `http://127.0.0.1:${await listeningPort(server)}`;
  }, 60_000);
  afterAll(async () => {
    await killServers(server);
    temp?.remove();
  });

  const runBash = async (script: string) =>
    promisify(execFile)('bash', ['-c', script], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', BASE: base, METRICS_TOKEN },
      timeout: 60_000,
    });

  it('when the walk\'s commands run in bash, then the task goes queued, running, succeeded, the agent running then idle, and every value the README shows is what they print', async () => {
    const walk = markedBlock('walk');
    const { stdout, stderr } = await runBash(walk);
    expect(stderr).toBe('');
    const lines = stdout.trimEnd().split('\n');
    expect(stdout).toMatch(/"status":"queued"/);
    expect(stdout).toMatch(/"error":"state_conflict"/);
    expect(stdout).toMatch(/\{"data":\[\{"id":"[^"]+","name":"scout","status":"idle"\}\],"meta":\{"nextCursor":null,"hasMore":false\}\}/);
    expect(lines.at(-1)).toBe('succeeded');
    const shown = bareWords(walk.split('\n').filter((line) => line.startsWith('# ')).map((line) => line.slice(2)));
    expect(bareWords(lines)).toEqual(shown);
    expect(shown).toEqual(['running', 'running', 'succeeded', 'idle', 'succeeded']);
  }, 90_000);

  it('when the agents-at-work commands run after the walk, then the agent\'s own key queues a task, takes it under a lease, heartbeats and succeeds it, and reaches nothing else', async () => {
    const work = markedBlock('work');
    const { stdout, stderr } = await runBash(`${markedBlock('walk')}\n${work}`);
    expect(stderr).toBe('');
    const lines = stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('FORBIDDEN');
    const shownWords = (block: string) => bareWords(block.split('\n').filter((line) => line.startsWith('# ')).map((line) => line.slice(2)));
    expect(bareWords(lines)).toEqual([...shownWords(markedBlock('walk')), ...shownWords(work)]);
    expect(shownWords(work)).toEqual(['queued', 'running', 'active', 'succeeded']);
  }, 90_000);

  it('when the watching commands run after the walk and the work, then the history shows the leased task\'s life and a create sent twice with one key is replayed, not made twice', async () => {
    const watch = markedBlock('watch');
    const { stdout, stderr } = await runBash(`${markedBlock('walk')}\n${markedBlock('work')}\n${watch}`);
    expect(stderr).toBe('');
    const shown = watch.split('\n').filter((line) => line.startsWith('# ')).map((line) => line.slice(2).trim());
    expect(shown).toEqual(['task.created task.leased task.progress task.succeeded', '201', '201 true']);
    expect(stdout.trimEnd().split('\n').slice(-3).map((line) => line.trim())).toEqual(shown);
  }, 90_000);

  it('when the task bodies the README names in its prose are sent to a running task, then the service takes each of them', async () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const bodies = [...readme.matchAll(/`(\{"status":"(?:failed|cancelled|succeeded)"[^`]*\})`/g)].map((match) => match[1] as string);
    expect(bodies.length).toBeGreaterThanOrEqual(2);
    const headers = { 'X-API-Key': 'readme-walk-api-key-0123456789', 'Content-Type': 'application/json' };
    const agent = (await (await fetch(`${base}/agents`, { method: 'POST', headers, body: JSON.stringify({ name: 'prose', type: 'type_a' }) })).json()) as { id: string };
    for (const body of bodies) {
      const task = (await (await fetch(`${base}/agents/${agent.id}/tasks`, { method: 'POST', headers, body: JSON.stringify({ title: 'prose' }) })).json()) as { id: string };
      const taskUrl = `${base}/agents/${agent.id}/tasks/${task.id}`;
      expect((await fetch(taskUrl, { method: 'PATCH', headers, body: JSON.stringify({ status: 'running' }) })).status).toBe(200);
      expect(() => JSON.parse(body)).not.toThrow();
      const answer = await fetch(taskUrl, { method: 'PATCH', headers, body });
      expect({ body, status: answer.status }).toEqual({ body, status: 200 });
    }
  });

  it('when the health and metrics commands run with METRICS_TOKEN set, then readiness is ready and the scrape has request counters', async () => {
    const { stdout } = await runBash(markedBlock('metrics'));
    expect(stdout).toContain('{"status":"ready","checks":{"database":"up"}}');
    expect(stdout).toMatch(/^http_requests_total\{.*\} \d+$/m);
  }, 60_000);
});

describe('the reference pages', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('sqlite');
  });
  afterAll(() => app.close());

  it.each(['/docs', '/redoc'])('when %s is opened, then its first content is the short getting-started, before the reference itself', async (page) => {
    const res = await app.http.get(page);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const body = /<body>([\s\S]*)<\/body>/.exec(res.text)?.[1] ?? '';
    // Swagger UI's page opens with an invisible sprite of icons; nothing else may come first.
    const before = body.slice(0, body.indexOf('<section class="getting-started"')).replace(/<svg[\s\S]*<\/svg>/, '');
    expect(body).toContain('<section class="getting-started"');
    expect(before.trim()).toBe('');
    const start = /<section class="getting-started"[^>]*>([\s\S]*?)<\/section>/.exec(body)?.[1] ?? '';
    expect(start).toMatch(/^\s*<h2>Getting started<\/h2>/);
    for (const step of ['POST /token', 'POST /agents', 'POST /agents/{agent_id}/tasks', 'PATCH /agents/{agent_id}/tasks/{task_id}']) expect(start).toContain(step);
    expect(start).toContain('href="/client"');
    expect(body.indexOf('getting-started')).toBeLessThan(body.search(/<div id="swagger-ui">|<redoc /));
    // Styled by a file of the service's own, not inline.
    const sheet = /<link rel="stylesheet" href="(\/assets\/docs-[^"]+\.css)">/.exec(res.text)?.[1];
    expect(sheet).toBe(assetPath('docs.css'));
    const css = await app.http.get(sheet!);
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.text).toContain('.getting-started');
  });

  it('when /redoc is opened, then the page has no inline style or script', async () => {
    const res = await app.http.get('/redoc');
    expect(res.text).not.toMatch(/<style|<script>|\sstyle=/);
  });
});
