import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The source is layered: a module imports only modules of a lower layer, or of its own room
 * without a cycle. Types flow down with the values: a layer that needs a shape declares it, and the
 * layers above import it from there.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const SRC = path.join(ROOT, 'src');

/** Highest first. A path matches the first room whose prefix it starts with. */
const LAYERS: Array<{ room: string; rank: number }> = [
  { room: 'process/', rank: 90 },
  { room: 'app.ts', rank: 80 },
  { room: 'http/', rank: 70 },
  { room: 'auth/', rank: 60 },
  { room: 'config/', rank: 55 },
  { room: 'domain/', rank: 50 },
  { room: 'data/', rank: 40 },
  { room: 'logger.ts', rank: 30 },
  { room: 'contract/', rank: 10 },
  { room: 'errors.ts', rank: 0 },
  { room: 'model.ts', rank: 0 },
];
/** The typed client is a package of its own: it reaches nothing of the service but the generated types. */
const CLIENT_ROOM = 'client/';
/** The pages' code runs in browsers: it reaches itself, the typed client package and Preact, nothing else. */
const BROWSER_ROOM = 'browser/';
const BROWSER_PACKAGES = new Set(['@agent-fleet/client', 'preact', 'preact/hooks', 'preact/jsx-runtime']);
/** What the pages' code never touches: the API only through the typed client, no HTML strings, no stored secrets. */
const BROWSER_FORBIDDEN = /\b(fetch|XMLHttpRequest|EventSource|WebSocket|localStorage|sessionStorage|indexedDB|innerHTML|outerHTML|insertAdjacentHTML|dangerouslySetInnerHTML|document\.cookie|eval)\b/;

function listSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return listSources(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, `${base}.tsx`, `${base}.d.ts`, path.join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return base;
}

function specifiersOf(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((ref) => ref.fileName);
}

function importsOf(file: string): string[] {
  return specifiersOf(file)
    .map((specifier) => resolveImport(file, specifier))
    .filter((target): target is string => target !== undefined);
}

function roomOf(file: string): { room: string; rank: number } | undefined {
  const relative = path.relative(SRC, file).split(path.sep).join('/');
  return LAYERS.find((layer) => relative === layer.room || relative.startsWith(layer.room));
}

const relativeName = (file: string): string => path.relative(ROOT, file).split(path.sep).join('/');

function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (!state.has(next)) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of graph.keys()) {
    if (state.has(node)) continue;
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}

describe('the source layout', () => {
  const files = listSources(SRC);
  const graph = new Map(files.map((file) => [file, importsOf(file)]));

  it('when the source is scanned, then every file outside the client package belongs to a room', () => {
    const homeless = files.filter((file) => !roomOf(file) && ![CLIENT_ROOM, BROWSER_ROOM].some((room) => relativeName(file).startsWith(`src/${room}`)));
    expect(homeless.map(relativeName)).toEqual([]);
  });

  it('when a module imports another, then the other is of a lower layer or of its own room', () => {
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      const from = roomOf(file);
      if (!from) continue;
      for (const target of targets) {
        if (!target.startsWith(SRC + path.sep)) continue;
        const to = roomOf(target);
        if (to && (to.room === from.room || to.rank < from.rank)) continue;
        upward.push(`${relativeName(file)} -> ${relativeName(target)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('when the client package imports, then it reaches only itself and the generated types', () => {
    const outside: string[] = [];
    for (const [file, targets] of graph) {
      if (!relativeName(file).startsWith(`src/${CLIENT_ROOM}`)) continue;
      for (const target of targets) {
        const name = relativeName(target);
        if (!name.startsWith(`src/${CLIENT_ROOM}`) && !name.startsWith('generated/')) outside.push(`${relativeName(file)} -> ${name}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('when the pages\' code imports, then it reaches only itself, the typed client package and Preact', () => {
    const outside: string[] = [];
    for (const file of files.filter((name) => relativeName(name).startsWith(`src/${BROWSER_ROOM}`))) {
      for (const specifier of specifiersOf(file)) {
        const target = specifier.startsWith('.') ? relativeName(resolveImport(file, specifier) ?? specifier) : specifier;
        if (!target.startsWith(`src/${BROWSER_ROOM}`) && !BROWSER_PACKAGES.has(target)) outside.push(`${relativeName(file)} -> ${target}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('when the pages\' code is read, then it calls no network, storage or HTML-string API of its own', () => {
    const found = files
      .filter((file) => relativeName(file).startsWith(`src/${BROWSER_ROOM}`))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, index) => ({ line: line.replace(/\/\/.*$/, ''), at: `${relativeName(file)}:${index + 1}` }))
          .filter(({ line }) => BROWSER_FORBIDDEN.test(line))
          .map(({ at, line }) => `${at}: ${line.trim()}`),
      );
    expect(found).toEqual([]);
    expect(BROWSER_FORBIDDEN.test("await fetch('/api/v1/agents')")).toBe(true);
    expect(BROWSER_FORBIDDEN.test('localStorage.setItem(key, secret)')).toBe(true);
  });

  it('when the imports are followed, then no module reaches itself again', () => {
    expect(findCycle(graph)?.map(relativeName)).toBeUndefined();
  });

  it('when a rule is broken, then the checks above see it', () => {
    const broken = new Map(graph);
    const database = path.join(SRC, 'data', 'database.ts');
    const tasks = path.join(SRC, 'domain', 'tasks.ts');
    broken.set(database, [...(graph.get(database) ?? []), tasks]);
    expect(findCycle(broken)).toBeDefined();
    expect(roomOf(database)!.rank).toBeLessThan(roomOf(tasks)!.rank);
  });
});
