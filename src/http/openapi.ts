import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { parse } from 'yaml';

export const API_DOCUMENT_PATH = path.resolve(__dirname, '..', '..', 'api.yaml');

export type ApiDocument = Record<string, unknown>;

export function loadApiDocument(file: string = API_DOCUMENT_PATH): ApiDocument {
  return parse(readFileSync(file, 'utf8')) as ApiDocument;
}

/**
 * Every request, and (when enabled) every response, checked against api.yaml. `beforeValidation`
 * runs once the route is matched (`req.openapi` is set) and before the request is validated.
 */
export function validateAgainst(
  document: ApiDocument,
  options: { validateResponses: boolean; beforeValidation?: RequestHandler[] },
): RequestHandler[] {
  const middlewares = OpenApiValidator.middleware({
    // The validator resolves $refs in place: give it its own copy.
    apiSpec: structuredClone(document) as never,
    validateRequests: { allErrors: true },
    validateResponses: options.validateResponses ? { allErrors: true } : false,
    validateSecurity: false,
    ignoreUndocumented: false,
    // `npm test` lints the document with Redocly. The validator's own meta-schema check would reject
    // the relative `tokenUrl: /token`, which OpenAPI 3.1 allows ("URLs MAY be relative references").
    validateApiSpec: false,
    // Full format checks (the default is "fast"): the same rules as isEmail and every client that validates with ajv-formats.
    validateFormats: true,
    ajvFormats: { mode: 'full' },
  }) as RequestHandler[];
  const matched = middlewares.findIndex((middleware) => middleware.name === 'securityMiddleware');
  if (matched < 0) throw new Error('express-openapi-validator changed: no securityMiddleware to place authentication after');
  middlewares.splice(matched + 1, 0, ...(options.beforeValidation ?? []));
  return middlewares;
}
