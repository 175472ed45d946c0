import express, { type RequestHandler } from 'express';
import { AppError, schemaViolation, type FieldProblem } from '../errors';

/** Deeper JSON than this is refused: no contract here nests that far, and deeper input is an attack. */
const MAX_JSON_DEPTH = 64;

/**
 * Parses the body only of operations that declare one, and only in a media type they declare
 * (anything else is 415 here). Any other operation ignores a body it was sent, as RFC 9110
 * section 9.3.1 allows for GET: malformed JSON on a GET or DELETE is not an error, because nothing
 * reads it. The request validator then sees only declared media types, without parameters: it
 * compiles and keeps one validator per operation and Content-Type it meets, so arbitrary
 * Content-Type values would otherwise grow its cache without bound.
 */
export function parseDeclaredBody(limitBytes: number): RequestHandler {
  const json = express.json({ limit: limitBytes, type: 'application/json', strict: false });
  const form = express.urlencoded({ extended: false, limit: limitBytes, type: 'application/x-www-form-urlencoded' });
  return (req, res, next) => {
    const declared = req.matched?.bodyTypes;
    const header = req.headers['content-type'];
    if (!declared) {
      delete req.headers['content-type'];
      return next();
    }
    if (header === undefined) return next();
    const mediaType = (header.split(';', 1)[0] ?? '').trim().toLowerCase();
    if (!declared.has(mediaType)) {
      return next(new AppError('unsupported_media_type', `Request body must be ${[...declared].join(' or ')}`));
    }
    json(req, res, (jsonError?: unknown) => {
      if (jsonError) return next(jsonError);
      form(req, res, (formError?: unknown) => {
        req.headers['content-type'] = mediaType;
        next(formError);
      });
    });
  };
}

/**
 * Text that cannot be stored exactly is refused before anything stores it: NUL (PostgreSQL cannot
 * hold it) and lone UTF-16 surrogates (not Unicode text: SQLite would store U+FFFD instead and
 * answer something else than it acknowledged), in the body's keys and strings, the query and the
 * path. JSON bodies nested deeper than MAX_JSON_DEPTH are refused too.
 */
export const refuseUnstorableText: RequestHandler = (req, _res, next) => {
  const problems: FieldProblem[] = [];
  for (const [name, value] of Object.entries(req.matched?.params ?? {})) {
    const problem = textProblem(value);
    if (problem) problems.push({ field: name, in: 'path', message: problem });
  }
  for (const [name, value] of Object.entries(req.query as Record<string, unknown>)) {
    walk(value, name, 'query', problems);
  }
  if (req.body !== undefined && typeof req.body === 'object') walk(req.body, '', 'body', problems);
  if (problems.length > 0) return next(schemaViolation('Request validation failed', problems));
  next();
};

function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain the NUL character';
  if (!text.isWellFormed()) return 'must be valid Unicode text (it holds a lone UTF-16 surrogate)';
  return undefined;
}

/** Iterative, so that the walk itself cannot overflow the stack on deep input. */
function walk(root: unknown, rootPath: string, where: FieldProblem['in'], problems: FieldProblem[]): void {
  const pending: Array<{ value: unknown; path: string; depth: number }> = [{ value: root, path: rootPath, depth: 0 }];
  while (pending.length > 0 && problems.length < 20) {
    const { value, path, depth } = pending.pop() as { value: unknown; path: string; depth: number };
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) problems.push({ field: path || '(body)', in: where, message: problem });
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_JSON_DEPTH) {
      problems.push({ field: path || '(body)', in: where, message: `must not nest deeper than ${MAX_JSON_DEPTH} levels` });
      return;
    }
    for (const [key, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${key}` : key;
      const keyProblem = textProblem(key);
      if (keyProblem) problems.push({ field: path || '(body)', in: where, message: `a key ${keyProblem}` });
      pending.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
}
