import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const API_DOCUMENT_PATH = path.resolve(__dirname, '..', '..', 'api.yaml');

/** api.yaml as JSON, written by `npm run generate` beside the types (`npm test` fails when it is stale). */
export const PARSED_API_DOCUMENT_PATH = path.resolve(__dirname, '..', '..', 'generated', 'api.json');

export type ApiDocument = Record<string, unknown>;

/** generated/api.json: the document, and the digest of the api.yaml it was parsed from. */
export interface ParsedApiDocument {
  sha256: string;
  document: ApiDocument;
}

export const digestOf = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * The document a YAML file holds, read from its JSON twin (for api.yaml, generated/api.json) when
 * that was parsed from this very text: the YAML parser allocates about 100 MB to read api.yaml (its
 * token and node trees), JSON.parse about 1 MB, and the heap a process grows to at start is memory it
 * keeps. A file edited since its twin was written is parsed as YAML: the answer is always the file's.
 */
export function loadApiDocument(file: string = API_DOCUMENT_PATH, twin: string | undefined = file === API_DOCUMENT_PATH ? PARSED_API_DOCUMENT_PATH : undefined): ApiDocument {
  const text = readFileSync(file, 'utf8');
  if (twin !== undefined) {
    const parsed = readParsedDocument(twin);
    if (parsed?.sha256 === digestOf(text)) return parsed.document;
  }
  // The YAML parser is loaded only when a document is parsed as YAML.
  const { parse } = require('yaml') as typeof import('yaml');
  return parse(text) as ApiDocument;
}

function readParsedDocument(file: string): ParsedApiDocument | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ParsedApiDocument;
  } catch {
    return undefined;
  }
}

/** Follows a local `$ref` (`#/components/...`) to what it names. */
export function resolveRef<T extends { $ref?: string }>(document: ApiDocument, node: T): T {
  let current: T = node;
  for (let hops = 0; current.$ref !== undefined && hops < 10; hops++) {
    current = current.$ref
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<unknown>((at, part) => (at as Record<string, unknown>)[part], document) as T;
  }
  return current;
}
