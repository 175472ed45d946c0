/**
 * Builds the typed client package `@agent-fleet/client` from generated/api.d.ts and the runtime in
 * src/client/: ESM and CommonJS builds with their declarations, an `exports` map, openapi-fetch and
 * eventsource-parser (the event stream's parser) as its only dependencies. Packs it with npm and prints the tarball's path as the last line.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

const root = path.resolve(__dirname, '..');
const out = path.join(root, 'build', 'client');
const packageDir = path.join(out, 'package');
const entry = 'src/client/index';

function compile(format: 'esm' | 'cjs'): void {
  const esm = format === 'esm';
  const tsconfig = path.join(out, `tsconfig.${format}.json`);
  writeFileSync(
    tsconfig,
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: esm ? 'ES2022' : 'CommonJS',
        moduleResolution: esm ? 'Bundler' : 'Node10',
        esModuleInterop: true,
        // No Node types: the client runs in browsers too.
        lib: ['ES2022', 'DOM'],
        types: [],
        strict: true,
        noUncheckedIndexedAccess: true,
        declaration: true,
        skipLibCheck: true,
        rootDir: root,
        outDir: path.join(packageDir, 'dist', format),
      },
      files: [path.join(root, `${entry}.ts`)],
    }),
  );
  execFileSync(process.execPath, [require.resolve('typescript/lib/tsc.js'), '-p', tsconfig], { stdio: 'inherit' });
  const generated = path.join(packageDir, 'dist', format, 'generated');
  mkdirSync(generated, { recursive: true });
  copyFileSync(path.join(root, 'generated', 'api.d.ts'), path.join(generated, 'api.d.ts'));
  // The package is ESM ("type": "module"); this marks the CommonJS build as what it is, for Node and TypeScript.
  if (!esm) writeFileSync(path.join(packageDir, 'dist', format, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
}

function manifest(): object {
  const spec = parse(readFileSync(path.join(root, 'api.yaml'), 'utf8')) as { info: { version: string; title: string } };
  const service = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
    license: string;
  };
  const build = (format: string, file: string) => `./dist/${format}/${entry}.${file}`;
  return {
    name: '@agent-fleet/client',
    version: spec.info.version,
    description: `Typed client for the ${spec.info.title}: every path, parameter and body checked by the compiler.`,
    license: service.license,
    type: 'module',
    main: build('cjs', 'js'),
    module: build('esm', 'js'),
    types: build('esm', 'd.ts'),
    exports: {
      '.': {
        import: { types: build('esm', 'd.ts'), default: build('esm', 'js') },
        require: { types: build('cjs', 'd.ts'), default: build('cjs', 'js') },
      },
      './package.json': './package.json',
    },
    files: ['dist', 'README.md'],
    sideEffects: false,
    engines: { node: '>=20' },
    dependencies: { 'openapi-fetch': service.devDependencies['openapi-fetch'], 'eventsource-parser': service.dependencies['eventsource-parser'] },
  };
}

function main(): void {
  execFileSync(process.execPath, [require.resolve('tsx/cli'), path.join(root, 'scripts', 'generate.ts'), '--check'], { stdio: 'inherit' });
  rmSync(out, { recursive: true, force: true });
  mkdirSync(packageDir, { recursive: true });
  compile('esm');
  compile('cjs');
  writeFileSync(path.join(packageDir, 'package.json'), `${JSON.stringify(manifest(), null, 2)}\n`);
  copyFileSync(path.join(root, 'src', 'client', 'README.md'), path.join(packageDir, 'README.md'));
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: packageDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }),
  ) as { filename: string; size: number; entryCount: number }[];
  const [tarball] = packed;
  if (tarball === undefined) throw new Error('npm pack wrote no tarball');
  console.log(`packed ${tarball.entryCount} files, ${tarball.size} bytes`);
  console.log(path.join(out, tarball.filename));
}

main();
