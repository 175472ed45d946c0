import { resolveRef } from './openapi';

type Node = Record<string, unknown>;
type Parameter = { $ref?: string; name?: unknown; in?: unknown; schema?: unknown };

/** `filter[field]`: one field's comparisons, a deepObject parameter of its own (`filter[field][op]=value`). */
const FILTER_FIELD = /^filter\[([^[\]]+)\]$/;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * api.yaml declares the comparisons on each field as a parameter of its own, `filter[created_at]`
 * (deepObject, so `filter[created_at][gte]=...`): a form every mainstream generator can send, where
 * one `filter` parameter two levels deep is a form OpenAPI leaves undefined. The service's query
 * parser reads them all into one `filter` object, the wire unchanged; this folds each operation's
 * per-field parameters back into that one parameter (`{field: {op: value}}`, nothing else at either
 * level), for whatever reads the document as the service reads the query: the request validator,
 * and api:diff (the wire is what a client sees). `document` is changed in place.
 */
export function nestFilterParameters<T>(document: T): T {
  const root = document as unknown as Node;
  for (const item of Object.values(isNode(root.paths) ? root.paths : {})) {
    if (!isNode(item)) continue;
    for (const operation of Object.values(item)) {
      if (!isNode(operation) || !Array.isArray(operation.parameters)) continue;
      const fields: Node = {};
      const kept: unknown[] = [];
      for (const raw of operation.parameters as Parameter[]) {
        const parameter = resolveRef(root, raw);
        const field = parameter.in === 'query' && typeof parameter.name === 'string' ? FILTER_FIELD.exec(parameter.name)?.[1] : undefined;
        if (field === undefined) kept.push(raw);
        else fields[field] = parameter.schema;
      }
      if (Object.keys(fields).length === 0) continue;
      operation.parameters = [
        ...kept,
        { name: 'filter', in: 'query', style: 'deepObject', explode: true, allowReserved: true, schema: { type: 'object', additionalProperties: false, properties: fields } },
      ];
    }
  }
  return document;
}
