/**
 * npm run build:sqlite (also the last step of `npm install` / `npm ci`, after patch-package)
 *
 * Compiles better-sqlite3's native addon from its patched source (patches/better-sqlite3+*.patch)
 * for the Node that runs this script, then checks that the addon loads and runs a query.
 *
 * The patch keeps better-sqlite3 12 alive on Node 24: there node::ObjectWrap, which its objects
 * derive from, removes a cleanup hook when a garbage-collected statement is freed, and aborts the
 * process when that happens outside a JavaScript context (which is how the service died at
 * start). better-sqlite3 13 fixes that but no longer runs on Node 20; the patch gives 12 its own
 * ObjectWrap without the hooks, as Node 20 and 22 define it.
 *
 * package.json's allowScripts denies better-sqlite3's own install script, whose prebuilt download
 * or build would be of the unpatched source, so this is the addon's one build. An npm that does
 * not know allowScripts runs that script first; this build then replaces its binary. Run it again
 * after switching Node versions (`npm rebuild` skips better-sqlite3 for the same reason).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '..');
const PACKAGE_DIR = path.dirname(require.resolve('better-sqlite3/package.json', { paths: [REPO_ROOT] }));
const ADDON = path.join(PACKAGE_DIR, 'build', 'Release', 'better_sqlite3.node');
const STAMP = path.join(PACKAGE_DIR, 'build', 'patched-build.json');
// The symbol an addon built against Node 24's node::ObjectWrap imports, and the patched one does not.
const HOOKED_OBJECT_WRAP_SYMBOL = 'RemoveEnvironmentCleanupHook';

function readPatch(): string {
  const patches = readdirSync(path.join(REPO_ROOT, 'patches')).filter((name) => name.startsWith('better-sqlite3+'));
  if (patches.length !== 1) throw new Error(`expected one better-sqlite3 patch in patches/, found ${patches.length}`);
  return readFileSync(path.join(REPO_ROOT, 'patches', patches[0]!), 'utf8');
}

/** What the addon was built from and for: a build is reused only when all of it matches. */
function describeBuild(): Record<string, string> {
  return {
    patch: createHash('sha256').update(readPatch()).digest('hex'),
    node: process.version,
    modules: process.versions.modules,
    arch: process.arch,
    nodedir: process.env.npm_config_nodedir ?? '',
  };
}

function isBuilt(build: Record<string, string>): boolean {
  if (!existsSync(ADDON) || !existsSync(STAMP)) return false;
  return readFileSync(STAMP, 'utf8') === JSON.stringify(build);
}

function compileAddon(): void {
  // npm hands its lifecycle scripts the path of its own node-gyp; outside npm, node-gyp on PATH.
  const nodeGyp = process.env.npm_config_node_gyp;
  const [command, args] = nodeGyp ? [process.execPath, [nodeGyp]] : ['node-gyp', []];
  const result = spawnSync(command, [...args, 'rebuild', '--release'], { cwd: PACKAGE_DIR, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`node-gyp rebuild failed in ${PACKAGE_DIR} (${result.error?.message ?? `exit ${result.status}`})`);
}

function checkAddon(): void {
  if (readFileSync(ADDON).includes(HOOKED_OBJECT_WRAP_SYMBOL)) {
    throw new Error(`${ADDON} uses Node's node::ObjectWrap: it was built from unpatched source and aborts on Node 24`);
  }
  const probe = "const Database = require('better-sqlite3'); process.stdout.write(String(new Database(':memory:').prepare('select 41 + 1 as n').get().n))";
  const result = spawnSync(process.execPath, ['-e', probe], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (result.status !== 0 || result.stdout !== '42') throw new Error(`the built addon does not run a query:\n${result.stderr}`);
}

function main(): void {
  const build = describeBuild();
  if (isBuilt(build)) {
    console.log(`better-sqlite3: patched addon already built for Node ${process.version}`);
    return;
  }
  console.log(`better-sqlite3: building the patched addon for Node ${process.version}`);
  compileAddon();
  checkAddon();
  writeFileSync(STAMP, JSON.stringify(build));
}

try {
  main();
} catch (error) {
  console.error(`better-sqlite3: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
