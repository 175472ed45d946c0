import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

export const API_DOCUMENT_PATH = path.resolve(__dirname, '..', '..', 'api.yaml');

export type ApiDocument = Record<string, unknown>;

export function loadApiDocument(file: string = API_DOCUMENT_PATH): ApiDocument {
  return parse(readFileSync(file, 'utf8')) as ApiDocument;
}
