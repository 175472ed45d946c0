/**
 * Writes generated/ from api.yaml: the TypeScript types (openapi-typescript) that the service and
 * the client package (src/client, `npm run build:client`) use, and the document as JSON (with the
 * digest of the api.yaml it came from), which the service reads at start instead of parsing YAML.
 * With --check it writes nothing and fails when generated/ is stale.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { parse } from 'yaml';
import { digestOf, type ParsedApiDocument } from '../src/contract/openapi';

const root = path.resolve(__dirname, '..');
const banner = (source: string) =>
  `// Generated from api.yaml by \`npm run generate\` (${source}). Do not edit: edit api.yaml and regenerate.\n`;

async function renderFiles(): Promise<Record<string, string>> {
  const spec = await readFile(path.join(root, 'api.yaml'), 'utf8');
  // defaultNonNullable: false: a default (TaskCreate.priority, PostCreate.body) is what the service fills in when a
  // request leaves the field out; the field stays optional in the request types, as api.yaml says.
  const ast = await openapiTS(spec, { exportType: false, alphabetize: false, defaultNonNullable: false });
  const parsed: ParsedApiDocument = { sha256: digestOf(spec), document: parse(spec) as ParsedApiDocument['document'] };
  return {
    'generated/api.d.ts': banner('openapi-typescript') + astToString(ast),
    'generated/api.json': `${JSON.stringify(parsed, null, 2)}\n`,
  };
}

async function main(): Promise<void> {
  const files = await renderFiles();
  const check = process.argv.includes('--check');
  const stale: string[] = [];
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(root, relative);
    if (check) {
      const current = await readFile(target, 'utf8').catch(() => '');
      if (current !== content) stale.push(relative);
    } else {
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, content);
      console.log(`wrote ${relative}`);
    }
  }
  if (stale.length > 0) {
    console.error(`generated/ is stale (${stale.join(', ')}): run \`npm run generate\` and commit the result.`);
    process.exit(1);
  }
  if (check) console.log('generated/ is up to date with api.yaml');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
