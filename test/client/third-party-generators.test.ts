/**
 * Clients that tools no one here wrote generate from api.yaml: @hey-api/openapi-ts and orval. Each generated client is compiled with `tsc --strict` together with a
 * program that reads the required fields of the main representations without optional chaining and
 * sends filters, and the program runs against the service.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { TEST_API_KEY, startTestApp, type TestApp } from '../support/harness';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');
const sources = path.join(__dirname, 'generators');
/**
 * The newest orval that runs here (8.38 needs Map.groupBy, Node 21); earlier ones cannot send a
 * deepObject parameter. Its package asks for Node 22.18, yet it runs on Node 20 too: it is installed
 * for this test alone, never into the project, so its engines warn nobody.
 */
const ORVAL = 'orval@8.36.0';
const TYPES = ['Agent', 'AgentKey', 'Lease', 'Task', 'TaskSummary', 'User', 'Webhook'];

/** npm's own variables from `npm test` would point a nested npm at this repository. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_(?!config_cache$|config_registry$)/i.test(name)));
}

/** `tsc --strict` over `program` (and what it imports) into `out`, with this project's TypeScript: its errors, or ''. */
async function compile(directory: string, program: string): Promise<string> {
  const args = [
    path.join(root, 'node_modules/typescript/lib/tsc.js'),
    '--strict',
    '--target', 'es2022',
    '--lib', 'es2022,dom,dom.iterable',
    '--module', 'commonjs',
    '--moduleResolution', 'node10',
    '--skipLibCheck',
    '--typeRoots', path.join(root, 'node_modules/@types'),
    '--types', 'node',
    '--outDir', path.join(directory, 'build'),
    path.join(directory, program),
  ];
  try {
    await run(process.execPath, args, { cwd: directory, maxBuffer: 16 << 20 });
    return '';
  } catch (error) {
    return (error as { stdout?: string }).stdout ?? String(error);
  }
}

async function runProgram(directory: string, program: string, args: string[]): Promise<{ names: string[]; read: Record<string, unknown> }> {
  const { stdout } = await run(process.execPath, [path.join(directory, 'build', program.replace(/\.ts$/, '.js')), ...args], { cwd: directory, timeout: 30_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as { names: string[]; read: Record<string, unknown> };
}

describe('clients generated from api.yaml by third-party generators', () => {
  let app: TestApp;
  let baseUrl: string;
  let directory: string;

  beforeAll(async () => {
    app = await startTestApp('sqlite');
    baseUrl = await app.listen();
    directory = mkdtempSync(path.join(tmpdir(), 'agent-fleet-generators-'));
    cpSync(sources, directory, { recursive: true });
  });
  afterAll(async () => {
    await app?.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  it('when @hey-api/openapi-ts generates a fetch client, then a strict program reads required fields without optional chaining and filters agents against the service', async () => {
    await run(path.join(root, 'node_modules/.bin/openapi-ts'), ['-i', path.join(root, 'api.yaml'), '-o', path.join(directory, 'hey'), '-c', '@hey-api/client-fetch'], { cwd: directory, env: cleanEnv() });
    writeFileSync(path.join(directory, 'types.ts'), `export type { ${TYPES.join(', ')}, Event as FleetEvent } from './hey/types.gen';\n`);
    expect(await compile(directory, 'hey-api.ts')).toBe('');
    const answer = await runProgram(directory, 'hey-api.ts', [baseUrl, TEST_API_KEY, 'hey']);
    expect(answer).toEqual({ names: ['hey-b', 'hey-c'], read: { name: 'hey-b', type: 'type_b', status: 'idle', owner: null } });
  }, 120_000);

  it('when a generated type leaves a required field optional, then the strict program does not compile (the check can fail)', async () => {
    // The same program against the entity alone, whose fields are all optional.
    writeFileSync(path.join(directory, 'types.ts'), `export type { ${TYPES.map((name) => (name === 'Agent' ? 'AgentEntity as Agent' : name)).join(', ')}, Event as FleetEvent } from './hey/types.gen';\n`);
    const errors = await compile(directory, 'read-required.ts');
    expect(errors).toMatch(/read-required\.ts\(\d+,\d+\): error TS18048: 'agent\.\w+' is possibly 'undefined'/);
  }, 60_000);

  it(`when ${ORVAL} generates a fetch client, then the same program compiles and filters agents against the service`, async () => {
    const orvalDirectory = path.join(directory, 'orval-install');
    writeFileSync(path.join(directory, 'package.json'), JSON.stringify({ name: 'generators', private: true }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--prefix', orvalDirectory, ORVAL], { cwd: directory, env: cleanEnv(), maxBuffer: 16 << 20 });
    const config = path.join(directory, 'orval.config.cjs');
    writeFileSync(
      config,
      `module.exports = { api: { input: { target: ${JSON.stringify(path.join(root, 'api.yaml'))} }, output: { target: ${JSON.stringify(path.join(directory, 'orval/api.ts'))}, schemas: ${JSON.stringify(path.join(directory, 'orval/model'))}, client: 'fetch', mode: 'split', baseUrl: ${JSON.stringify(baseUrl)}, prettier: false, clean: true } } };\n`,
    );
    await run(path.join(orvalDirectory, 'node_modules/.bin/orval'), ['--config', config], { cwd: directory, env: cleanEnv(), maxBuffer: 16 << 20 });
    writeFileSync(path.join(directory, 'types.ts'), `export type { ${TYPES.join(', ')}, Event as FleetEvent } from './orval/model';\n`);
    expect(await compile(directory, 'orval.ts')).toBe('');
    const answer = await runProgram(directory, 'orval.ts', [baseUrl, TEST_API_KEY, 'orval']);
    expect(answer).toEqual({ names: ['orval-b', 'orval-c'], read: { name: 'orval-b', type: 'type_b', status: 'idle', owner: null } });
    expect(readFileSync(path.join(directory, 'orval/api.ts'), 'utf8')).toContain('filter[created_at]');
  }, 240_000);
});
