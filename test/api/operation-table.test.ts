import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { buildApp } from '../../src/app';
import { loadApiDocument, type ApiDocument } from '../../src/contract/openapi';
import { compileRouteTable } from '../../src/contract/route-table';
import { createLogger } from '../../src/logger';
import { openTestDatabase, testConfig, type TestDatabase } from '../support/harness';

const SRC = path.resolve(__dirname, '..', '..', 'src');
/**
 * The typed client's public API is keyed by path (openapi-fetch's design), and the pages' browser
 * code (the sign-in pages and the console) is a client of the API: both are callers of the
 * contract, not the server.
 */
const CALLERS = [path.join(SRC, 'client'), path.join(SRC, 'browser')];

describe('the operation table', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase('sqlite');
  });
  afterAll(async () => {
    await database.close();
  });
  const build = (apiDocument: ApiDocument, handlers = {}) =>
    buildApp({ config: testConfig({ database: database.config }), db: database.db, logger: createLogger({ logLevel: 'silent' }), apiDocument, handlers });

  it('when api.yaml declares an operation that has no handler, then the app refuses to start and names it', () => {
    const document = loadApiDocument();
    (document.paths as Record<string, unknown>)['/widgets'] = {
      get: { operationId: 'listWidgets', summary: 'Widgets', security: [], responses: { '200': { description: 'The widgets.' } } },
    };
    expect(() => build(document)).toThrow(/operations of api\.yaml without a handler: listWidgets/);
  });

  it('when a handler names no operation of api.yaml, then the app refuses to start and names it', () => {
    const document = loadApiDocument();
    delete (document.paths as Record<string, unknown>)['/protected'];
    expect(() => build(document)).toThrow(/handlers for operations api\.yaml does not declare: getProtected/);
    expect(() => build(loadApiDocument(), { listGadgets: () => undefined })).toThrow(/handlers for operations api\.yaml does not declare: listGadgets/);
  });

  it('when api.yaml has an operation without an operationId, then the app refuses to start', () => {
    const document = loadApiDocument();
    delete ((document.paths as Record<string, Record<string, { operationId?: string }>>)['/health'] as Record<string, { operationId?: string }>).get?.operationId;
    expect(() => build(document)).toThrow(/GET \/health has no operationId/);
  });

  it('when the server code is read, then no string in it spells a path of api.yaml: links and redirects come from the route table', () => {
    const table = compileRouteTable(loadApiDocument());
    const found: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        const text = literalText(node);
        if (text !== undefined && spellsPath(table, text)) found.push(`${path.relative(SRC, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${JSON.stringify(text)}`);
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(found).toEqual([]);
  });

  it('when the scan meets a path in any spelling, then it reports it (the scan can fail)', () => {
    const table = compileRouteTable(loadApiDocument());
    for (const spelling of ['/agents', '/agents/:agent_id', '/api/v1/agents/{agent_id}/tasks', '/agents/x/tasks?limit=1', '/docs/favicon-32x32.png', '<a href="/openapi.json">', '/api/v1/users/x/posts', '/login?error=oauth_failed']) {
      expect([spelling, spellsPath(table, spelling)]).toEqual([spelling, true]);
    }
    for (const other of ['/', '/api', '/api/auth/oauth', 'agents', '/nowhere', 'text/html', '<h1>@agent-fleet/client</h1></redoc>', 'the API listener answers /metrics with 404']) {
      expect([other, spellsPath(table, other)]).toEqual([other, false]);
    }
  });
});

function* sourceFiles(directory: string): Generator<string> {
  for (const name of readdirSync(directory)) {
    const full = path.join(directory, name);
    if (CALLERS.includes(full)) continue;
    if (statSync(full).isDirectory()) yield* sourceFiles(full);
    else if (full.endsWith('.ts')) yield full;
  }
}

/** A string or template literal's text, each `${...}` read as one path segment. */
function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((span) => `x${span.literal.text}`)].join('');
  return undefined;
}

/**
 * Whether text names a path api.yaml declares, as routing, links and redirects would: the whole
 * literal (`'/agents'`, `` `/agents/${id}` ``, `'/login?error=x'`) or an address in markup
 * (`href="/docs"`), written as in api.yaml (`{id}`), as an Express route (`:id`) or concretely
 * (`/agents/x`). Prose that mentions a path (a log message) is not routing. `/` alone is not
 * counted: it is also every path's separator and the cookies' path.
 */
function spellsPath(table: ReturnType<typeof compileRouteTable>, text: string): boolean {
  const candidates = [text, ...[...text.matchAll(/(?:href|src|action|spec-url|url)=["']?(\/[^\s"'<>`]*)/g)].map((match) => match[1] as string)];
  return candidates.some((candidate) => {
    if (!candidate.startsWith('/')) return false;
    const bare = candidate.split(/[?#]/, 1)[0] as string;
    if (bare === '/') return false;
    const normalised = bare.replace(/\{[^{}/]+\}|:[A-Za-z_]+/g, 'x');
    return table.find(normalised) !== undefined;
  });
}
