/**
 * Bundles the code and styles the pages load (src/browser) with esbuild into dist/browser: each
 * file named by its content's hash, so that the service can let browsers keep it for a year, and
 * `manifest.json` mapping each file's plain name (`console.js`) to its hashed one. The service
 * reads the manifest at start. Run by `npm run build`, before the tests and before the benchmark.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build, type BuildOptions } from 'esbuild';

const root = path.resolve(__dirname, '..');
const source = path.join(root, 'src', 'browser');
export const BROWSER_OUT_DIR = path.join(root, 'dist', 'browser');

/** Each file's plain name → its source, and the name esbuild gives it before the hash. */
const ENTRIES: Record<string, { source: string; out: string }> = {
  'console.js': { source: 'console/main.tsx', out: 'console' },
  'login.js': { source: 'login.ts', out: 'login' },
  'pages.css': { source: 'styles/pages.css', out: 'pages' },
  'docs.css': { source: 'styles/docs.css', out: 'docs' },
  'client.css': { source: 'styles/client.css', out: 'client' },
  'favicon.svg': { source: 'favicon.svg', out: 'favicon' },
  'favicon.ico': { source: 'favicon.ico', out: 'favicon-ico' },
};

export const BUILD_OPTIONS: BuildOptions = {
  absWorkingDir: root,
  entryPoints: Object.values(ENTRIES).map(({ source: file, out }) => ({ in: path.join(source, file), out })),
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['chrome120', 'firefox121', 'safari17'],
  platform: 'browser',
  entryNames: '[name]-[hash]',
  loader: { '.svg': 'copy', '.ico': 'copy' },
  jsx: 'automatic',
  jsxImportSource: 'preact',
  alias: { '@agent-fleet/client': path.join(root, 'src', 'client', 'index.ts') },
  tsconfig: path.join(source, 'tsconfig.json'),
  legalComments: 'none',
  metafile: true,
  write: true,
  logLevel: 'warning',
};

/**
 * Builds every file into `outDir` and returns the manifest it wrote. A file whose content did not
 * change keeps its name; the manifest is replaced in one rename, then files it no longer names go,
 * so that a service started from the previous build goes on finding its files meanwhile.
 */
export async function buildBrowserAssets(outDir = BROWSER_OUT_DIR): Promise<Record<string, string>> {
  mkdirSync(outDir, { recursive: true });
  const result = await build({ ...BUILD_OPTIONS, outdir: outDir });
  const outputs = Object.entries(result.metafile?.outputs ?? {});
  const manifest: Record<string, string> = {};
  for (const [name, { source: file }] of Object.entries(ENTRIES)) {
    const entryPoint = path.relative(root, path.join(source, file));
    const output = outputs.find(([, meta]) => meta.entryPoint === entryPoint);
    if (!output) throw new Error(`esbuild wrote no file for ${entryPoint}`);
    manifest[name] = path.basename(output[0]);
  }
  const next = path.join(outDir, `manifest.json.${process.pid}`);
  writeFileSync(next, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(next, path.join(outDir, 'manifest.json'));
  const kept = new Set(['manifest.json', ...Object.values(manifest)]);
  for (const file of readdirSync(outDir)) if (!kept.has(file) && !file.startsWith('manifest.json.')) rmSync(path.join(outDir, file), { force: true });
  return manifest;
}

if (require.main === module) {
  buildBrowserAssets().then(
    (manifest) => console.log(`browser assets: ${Object.values(manifest).join(', ')}`),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
