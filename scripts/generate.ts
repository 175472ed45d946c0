/**
 * Writes generated/ from api.yaml: the TypeScript types (openapi-typescript) and the typed
 * client (openapi-fetch). With --check it writes nothing and fails when generated/ is stale.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';

const root = path.resolve(__dirname, '..');
const banner = (source: string) =>
  `// Generated from api.yaml by \`npm run generate\` (${source}). Do not edit: edit api.yaml and regenerate.\n`;

const clientSource = `${banner('scripts/generate.ts')}
import createClient, { type ClientOptions } from 'openapi-fetch';
import type { paths } from './api';

export type { paths, components, operations } from './api';

/**
 * Query parameters as the API reads them: arrays comma-separated (\`fields=name,status\`, form
 * style without explode) and objects as \`filter[field][op]=value\` (deepObject, two levels), which
 * openapi-fetch's default serialiser does not write.
 */
export function serializeQuery(query: Record<string, unknown>): string {
  const parts: string[] = [];
  const add = (key: string, value: unknown): void => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) {
      parts.push(\`\${key}=\${value.map((item) => encodeURIComponent(String(item))).join(',')}\`);
    } else if (typeof value === 'object') {
      for (const [name, inner] of Object.entries(value)) add(\`\${key}[\${encodeURIComponent(name)}]\`, inner);
    } else {
      parts.push(\`\${key}=\${encodeURIComponent(String(value))}\`);
    }
  };
  for (const [name, value] of Object.entries(query)) add(encodeURIComponent(name), value);
  return parts.join('&');
}

/** A typed client for the agent fleet API: every path, parameter and body checked by the compiler. */
export function createAgentFleetClient(options: ClientOptions & { baseUrl: string }) {
  return createClient<paths>({ querySerializer: serializeQuery, ...options });
}

export type AgentFleetClient = ReturnType<typeof createAgentFleetClient>;
`;

async function renderFiles(): Promise<Record<string, string>> {
  const spec = await readFile(path.join(root, 'api.yaml'), 'utf8');
  // defaultNonNullable: false: a default (TaskCreate.priority, PostCreate.body) is what the service fills in when a
  // request leaves the field out; the field stays optional in the request types, as api.yaml says.
  const ast = await openapiTS(spec, { exportType: false, alphabetize: false, defaultNonNullable: false });
  return {
    'generated/api.d.ts': banner('openapi-typescript') + astToString(ast),
    'generated/client.ts': clientSource,
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
