/**
 * Compares two versions of the spec and classifies every change as breaking, non-breaking or
 * documentation only, per operation and per direction.
 *
 * The classification is Redocly's (`redocly diff` with the `diff-recommended` rules that
 * redocly.yaml enables): it knows that a tightened constraint breaks a request but not a response,
 * that a new enum value breaks a response but not a request, and so on. Its verdicts are only as
 * good as the documents it walks, so both sides are first brought to one normal form:
 *  - `allOf` merged (allof-merge): otherwise moving a property into `allOf: [$ref]`, as api.yaml
 *    does to narrow error codes, reads as "type narrowed from any" and every bound as new;
 *  - every `$ref` inlined: Redocly reports a change to a shared schema once, at the first operation
 *    that uses it, and a schema shared by a request and a response (AgentName, TaskTitle) would be
 *    rated at whichever it met first. Inlined, each use is rated in its own direction.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { merge } from 'allof-merge';
import semver from 'semver';
import { ROOT, type OpenApiDocument, type SpecSource } from './spec-source';
import { nestFilterParameters } from '../../src/contract/filter-parameters';

const execFileAsync = promisify(execFile);

export type Impact = 'major' | 'minor' | 'patch';
export type Category = 'breaking' | 'non-breaking' | 'documentation';
export type Direction = 'request' | 'response' | 'operation' | 'document';

export interface ApiChange {
  category: Category;
  impact: Impact;
  /** `GET /agents/{agent_id}`, or undefined for a change outside the paths (info, servers, security schemes). */
  operation?: string;
  direction: Direction;
  /** Where in the operation: `request body: title`, `query parameter status`, `200 response: data[].name`. */
  where: string;
  message: string;
  /** The diff rules that rated it (empty for a change no rule found harmful). */
  rules: string[];
}

export interface ApiComparison {
  base: { label: string; version: string };
  revision: { label: string; version: string };
  changes: ApiChange[];
  /** The smallest version bump the changes need (none: no change at all). */
  requiredBump: Impact | 'none';
  gate: { passed: boolean; reason: string };
}

interface RedoclyLocation {
  pointer: string;
  value?: unknown;
}

interface RedoclyChange {
  path: string;
  kind: 'added' | 'removed' | 'modified';
  impact: Impact;
  property?: string;
  verdicts: { ruleId: string; impact: Impact; message: string }[];
  base?: RedoclyLocation;
  revision?: RedoclyLocation;
}

interface RedoclyReport {
  changes: RedoclyChange[];
}

const REDOCLY = path.join(ROOT, 'node_modules', '.bin', 'redocly');
const REDOCLY_CONFIG = path.join(ROOT, 'redocly.yaml');
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
/** Keywords that change what a reader is told, never what a client may send or receive. */
const DOCUMENTATION_KEYWORDS = new Set(['description', 'summary', 'example', 'examples', 'externalDocs', 'title', 'tags', 'x-sunset', 'contact', 'license', 'termsOfService']);

/** Maps whose keys are names (a property called `description` is not documentation). */
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'paths', 'responses', 'headers', 'content', 'securitySchemes', 'callbacks', 'links', 'encoding', 'variables', 'mapping']);

/**
 * Walks a normal form once more: `const: x` becomes `enum: [x]` (the same schema, in the one
 * spelling Redocly's enum rules read; api.yaml narrows error codes with const), and, for the
 * structural pass, the documentation keywords go. Redocly pairs up array items (parameters) by
 * likeness, and a rewritten description makes it read one parameter as removed and another added.
 */
function canonicalize(node: unknown, withDocumentation: boolean, parentKey = ''): unknown {
  if (Array.isArray(node)) return node.map((item) => canonicalize(item, withDocumentation));
  if (node === null || typeof node !== 'object') return node;
  const isNameMap = NAME_MAPS.has(parentKey);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (!isNameMap && !withDocumentation && DOCUMENTATION_KEYWORDS.has(key)) continue;
    // Values, not schemas: kept as they are.
    if (!isNameMap && (key === 'example' || key === 'examples' || key === 'default' || key === 'enum')) {
      out[key] = value;
      continue;
    }
    out[key] = canonicalize(value, withDocumentation, isNameMap ? '' : key);
  }
  if (!isNameMap) closeLikeAdditionalProperties(out);
  if (!isNameMap && 'const' in out) {
    const single = out.const;
    const same = (value: unknown) => JSON.stringify(value) === JSON.stringify(single);
    out.enum = Array.isArray(out.enum) ? out.enum.filter(same) : [single];
    delete out.const;
  }
  return out;
}

/** `false`, or `{not: {}}` with words beside it (the same schema, for generators that cannot read a boolean one). */
function acceptsNothing(schema: unknown): boolean {
  if (schema === false) return true;
  if (typeof schema !== 'object' || schema === null) return false;
  const { not, description: _description, ...rest } = schema as Record<string, unknown>;
  return typeof not === 'object' && not !== null && Object.keys(not).length === 0 && Object.keys(rest).length === 0;
}

/** Keywords that let a schema evaluate properties beyond its own `properties` and `patternProperties`. */
const APPLICATORS = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas', '$ref', '$dynamicRef'];

/**
 * api.yaml composes each representation from its entity (`allOf: [$ref TaskEntity]`) and closes it
 * with `unevaluatedProperties: false`. Once allOf is merged and every $ref inlined, nothing else
 * evaluates properties, and that is exactly `additionalProperties: false`: spelled so, a composed
 * schema reads as the flat one it replaced. A property declared `false` (a summary leaving a field
 * out) then says no more than its absence.
 */
function closeLikeAdditionalProperties(schema: Record<string, unknown>): void {
  if (!('unevaluatedProperties' in schema) || 'additionalProperties' in schema || APPLICATORS.some((keyword) => keyword in schema)) return;
  schema.additionalProperties = schema.unevaluatedProperties;
  delete schema.unevaluatedProperties;
  const properties = schema.properties as Record<string, unknown> | undefined;
  if (schema.additionalProperties !== false || !properties || typeof properties !== 'object') return;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  for (const [name, property] of Object.entries(properties)) if (acceptsNothing(property) && !required.has(name)) delete properties[name];
}

/** Both sides in the normal form described above; components other than security schemes are gone once inlined. */
export async function normalizeSpec(document: OpenApiDocument, options: { withDocumentation: boolean } = { withDocumentation: true }): Promise<OpenApiDocument> {
  // Per-field `filter[field]` parameters are one `filter` object on the wire, as the service reads them.
  const merged = merge(nestFilterParameters(structuredClone(document)), {
    mergeRefSibling: true,
    mergeCombinarySibling: true,
    onMergeError: (message: string) => {
      throw new Error(`allOf cannot be merged: ${message}`);
    },
  }) as OpenApiDocument;
  const inlined = (await $RefParser.dereference(merged as never, { dereference: { circular: false } })) as OpenApiDocument;
  const securitySchemes = (inlined.components as { securitySchemes?: unknown } | undefined)?.securitySchemes;
  const normal: OpenApiDocument = { ...inlined };
  delete normal.components;
  if (securitySchemes) normal.components = { securitySchemes };
  return canonicalize(normal, options.withDocumentation) as OpenApiDocument;
}

async function runRedoclyDiff(base: OpenApiDocument, revision: OpenApiDocument): Promise<RedoclyReport> {
  const dir = await mkdtemp(path.join(tmpdir(), 'api-diff-'));
  try {
    const baseFile = path.join(dir, 'base.json');
    const revisionFile = path.join(dir, 'revision.json');
    await Promise.all([writeFile(baseFile, JSON.stringify(base)), writeFile(revisionFile, JSON.stringify(revision))]);
    const { stdout } = await execFileAsync(REDOCLY, ['diff', baseFile, revisionFile, '--config', REDOCLY_CONFIG, '--format', 'json', '--fail-on', 'none'], {
      encoding: 'utf8',
      maxBuffer: 256 << 20,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' },
    }).catch((error: { code?: number; stderr?: string }) => {
      throw new Error(`redocly diff failed (${error.code}): ${String(error.stderr ?? error).trim().slice(-2000)}`);
    });
    return JSON.parse(stdout) as RedoclyReport;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const decodePointer = (pointer: string): string[] =>
  pointer
    .replace(/^#\/?/, '')
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~'));

/** `properties/data/items/anyOf/0/properties/name` → `data[].name` (alternatives of anyOf/oneOf read as one field). */
function fieldPath(segments: string[]): string {
  let field = '';
  for (let index = 0; index < segments.length; index += 1) {
    const segment = segments[index]!;
    if (segment === 'properties') field += index + 1 < segments.length ? `.${segments[++index]}` : '';
    else if (segment === 'items') field += '[]';
    else if (segment === 'additionalProperties') field += '.*';
    else if ((segment === 'anyOf' || segment === 'oneOf' || segment === 'prefixItems') && index + 1 < segments.length) index += 1;
    else field += `.${segment}`;
  }
  return field.replace(/^\./, '');
}

function valueAt(document: OpenApiDocument, segments: string[]): unknown {
  let node: unknown = document;
  for (const segment of segments) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[segment] : undefined;
  return node;
}

interface Place {
  operation?: string;
  direction: Direction;
  where: string;
  /** The schema (or other) segments below the place, for naming what was added or removed. */
  rest: string[];
}

function locate(pointer: string, base: OpenApiDocument, revision: OpenApiDocument): Place {
  const segments = decodePointer(pointer);
  if (segments[0] !== 'paths' || segments[1] === undefined) return { direction: 'document', where: segments.join('.') || 'document', rest: [] };
  const route = segments[1];
  const method = segments[2];
  if (method === undefined || !METHODS.has(method)) return { operation: route, direction: 'operation', where: segments.slice(2).join('.') || 'path', rest: [] };
  const operation = `${method.toUpperCase()} ${route}`;
  const rest = segments.slice(3);
  const part = rest[0];
  if (part === 'parameters' && rest[1] !== undefined) {
    const parameter = (valueAt(revision, segments.slice(0, 5)) ?? valueAt(base, segments.slice(0, 5))) as { name?: string; in?: string } | undefined;
    const schemaAt = rest.indexOf('schema');
    const below = schemaAt >= 0 ? fieldPath(rest.slice(schemaAt + 1)) : rest.slice(2).join('.');
    const name = parameter?.name ? `${parameter.in ?? ''} parameter \`${parameter.name}\``.trim() : `parameter ${rest[1]}`;
    return { operation, direction: 'request', where: below ? `${name}: ${below}` : name, rest: [] };
  }
  if (part === 'requestBody') {
    const schemaAt = rest.indexOf('schema');
    const mediaType = rest[1] === 'content' && rest[2] !== undefined && rest[2] !== 'application/json' ? ` (${rest[2]})` : '';
    const below = schemaAt >= 0 ? fieldPath(rest.slice(schemaAt + 1)) : rest.slice(1).join('.');
    return { operation, direction: 'request', where: `request body${mediaType}${below ? `: ${below}` : ''}`, rest: rest.slice(1) };
  }
  if (part === 'responses' && rest[1] !== undefined) {
    const status = rest[1];
    if (rest[2] === 'headers' && rest[3] !== undefined) {
      const below = rest.slice(4).filter((segment) => segment !== 'schema').join('.');
      return { operation, direction: 'response', where: `${status} response header \`${rest[3]}\`${below ? `: ${below}` : ''}`, rest: [] };
    }
    const schemaAt = rest.indexOf('schema');
    const mediaType = rest[2] === 'content' && rest[3] !== undefined && rest[3] !== 'application/json' ? ` (${rest[3]})` : '';
    const below = schemaAt >= 0 ? fieldPath(rest.slice(schemaAt + 1)) : rest.slice(2).join('.');
    return { operation, direction: 'response', where: `${status} response${mediaType}${below ? `: ${below}` : ''}`, rest: rest.slice(2) };
  }
  return { operation, direction: 'operation', where: rest.length ? `operation ${rest.join('.')}` : 'operation', rest: [] };
}

const show = (value: unknown): string => {
  const text = typeof value === 'string' ? `'${value}'` : JSON.stringify(value);
  return text === undefined ? 'nothing' : text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

/** What happened, in words, for a change that no rule rated (Redocly only words its verdicts). */
function describeChange(change: RedoclyChange, place: Place): string {
  const leaf = decodePointer(change.path).at(-1) ?? '';
  if (change.kind === 'modified') {
    const keyword = change.property ?? leaf;
    if (DOCUMENTATION_KEYWORDS.has(keyword)) return `\`${keyword}\` changed`;
    return `\`${keyword}\` changed from ${show(change.base?.value)} to ${show(change.revision?.value)}`;
  }
  const verb = change.kind;
  if (place.where === 'operation' && place.operation) return `operation ${verb}`;
  if (place.where === 'path') return `path ${verb}`;
  if (/^\d{3}|default$/.test(leaf) && decodePointer(change.path).at(-2) === 'responses') return `response ${leaf} ${verb}`;
  const parent = decodePointer(change.path).at(-2);
  if (parent === 'properties') return `property \`${leaf}\` ${verb}`;
  if (parent === 'headers') return `header \`${leaf}\` ${verb}`;
  if (parent === 'parameters' || place.where.includes('parameter')) return `parameter ${verb}`;
  return `\`${leaf}\` ${verb}`;
}

function categorize(change: RedoclyChange): Category {
  if (change.impact === 'major') return 'breaking';
  return isDocumentationChange(change) ? 'documentation' : 'non-breaking';
}

function toApiChanges(report: RedoclyReport, base: OpenApiDocument, revision: OpenApiDocument): ApiChange[] {
  const changes: ApiChange[] = [];
  const seen = new Set<string>();
  for (const change of report.changes) {
    const place = locate(change.path, base, revision);
    const category = categorize(change);
    const rated = change.verdicts.filter((verdict) => verdict.impact === change.impact);
    const messages = rated.length > 0 ? rated.map((verdict) => verdict.message) : [describeChange(change, place)];
    for (const message of messages) {
      const apiChange: ApiChange = {
        category,
        impact: change.impact,
        operation: place.operation,
        direction: place.direction,
        where: place.where,
        message,
        rules: rated.map((verdict) => verdict.ruleId),
      };
      // The alternatives of one anyOf (a full resource and its fieldset) change together: one line.
      const key = JSON.stringify([apiChange.category, apiChange.operation, apiChange.where, apiChange.message]);
      if (seen.has(key)) continue;
      seen.add(key);
      changes.push(apiChange);
    }
  }
  return changes;
}

export function requiredBump(changes: ApiChange[]): Impact | 'none' {
  if (changes.length === 0) return 'none';
  if (changes.some((change) => change.impact === 'major')) return 'major';
  if (changes.some((change) => change.impact === 'minor')) return 'minor';
  return 'patch';
}

/**
 * The semver gate: a breaking change needs a new major `info.version`; the version never goes
 * back. Compatible changes may wait, unreleased, for `npm run api:release` to give them a version.
 */
export function checkVersion(baseVersion: string, revisionVersion: string, bump: Impact | 'none'): { passed: boolean; reason: string } {
  if (semver.lt(revisionVersion, baseVersion)) return { passed: false, reason: `info.version went back from ${baseVersion} to ${revisionVersion}` };
  if (bump === 'major' && semver.major(revisionVersion) <= semver.major(baseVersion)) {
    return {
      passed: false,
      reason: `breaking changes need a major version: info.version is ${revisionVersion}, the base is ${baseVersion}; make the change compatible, or set info.version to ${semver.inc(baseVersion, 'major')} (npm run api:release does it)`,
    };
  }
  if (bump === 'none') return { passed: true, reason: 'no changes' };
  if (semver.eq(revisionVersion, baseVersion)) return { passed: true, reason: `compatible changes, not yet released (the next release is ${semver.inc(baseVersion, bump)})` };
  return { passed: true, reason: `info.version ${revisionVersion} covers a ${bump} change from ${baseVersion}` };
}

/** Documentation changes come from a second pass over the full documents; everything else from the first. */
function isDocumentationChange(change: RedoclyChange): boolean {
  if (change.kind === 'modified') return DOCUMENTATION_KEYWORDS.has(change.property ?? '');
  const segments = decodePointer(change.path);
  // A property called `tags` or `description` is part of the contract.
  return DOCUMENTATION_KEYWORDS.has(segments.at(-1) ?? '') && !NAME_MAPS.has(segments.at(-2) ?? '');
}

/** The extension that marks an answer only a request sending a given parameter can get. */
const ONLY_WITH = 'x-answers-only-requests-with';

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => value !== null && typeof value === 'object' && !Array.isArray(value);
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * A client of the base never sends a parameter the base does not declare, so an answer given only
 * to requests that send it (an `anyOf` member marked `x-answers-only-requests-with`, such as
 * `IDEMPOTENCY_KEY_IN_USE` beside a create's own 409) never reaches that client: the revision is
 * rated as that client sees it, without those members. Operations of the base that already
 * declared the parameter keep them, and any change to them is rated as usual.
 */
export function withoutAnswersToNewParameters(base: OpenApiDocument, revision: OpenApiDocument): OpenApiDocument {
  const view = structuredClone(revision) as Node;
  const basePaths = isNode((base as Node).paths) ? ((base as Node).paths as Node) : {};
  for (const [pathName, pathItem] of Object.entries(isNode(view.paths) ? view.paths : {})) {
    if (!isNode(pathItem)) continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!isNode(operation)) continue;
      const baseOperation = (basePaths[pathName] as Node | undefined)?.[method];
      const declared = new Set(
        [...(Array.isArray((basePaths[pathName] as Node | undefined)?.parameters) ? ((basePaths[pathName] as Node).parameters as Node[]) : []), ...(isNode(baseOperation) && Array.isArray(baseOperation.parameters) ? (baseOperation.parameters as Node[]) : [])].map((parameter) => String(parameter.name)),
      );
      for (const response of Object.values(isNode(operation.responses) ? operation.responses : {})) {
        for (const media of Object.values(isNode(response) && isNode(response.content) ? response.content : {})) {
          if (!isNode(media) || !isNode(media.schema) || !Array.isArray(media.schema.anyOf)) continue;
          const { anyOf, ...rest } = media.schema as Node & { anyOf: unknown[] };
          const kept = anyOf.filter((member) => !(isNode(member) && typeof member[ONLY_WITH] === 'string' && !declared.has(member[ONLY_WITH] as string)));
          if (kept.length === anyOf.length) continue;
          media.schema = kept.length === 1 && isNode(kept[0]) && Object.keys(rest).length === 0 ? kept[0] : { ...rest, anyOf: kept };
        }
      }
    }
  }
  return view as OpenApiDocument;
}

/** A sparse fieldset: the resource's own fields, each optional but `id`. */
const isFieldset = (member: unknown): boolean => isNode(member) && Array.isArray(member.required) && member.required.length === 1 && member.required[0] === 'id';

/**
 * An answer that is a full resource or its sparse fieldset (`anyOf: [Resource, Fieldset]`) is
 * rated by its full resource: both compose the same entity, so a field added to the entity changes
 * them together, and redocly's diff, which pairs anyOf members by their likeness, would otherwise
 * pair the old resource with the new fieldset and report every field as no longer required.
 */
export function fullResourcesOnly(document: OpenApiDocument): OpenApiDocument {
  const view = structuredClone(document) as Node;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isNode(node)) return;
    const members = node.anyOf;
    if (Array.isArray(members) && members.length === 2 && isNode(members[0]) && !isFieldset(members[0]) && isFieldset(members[1])) {
      delete node.anyOf;
      Object.assign(node, members[0]);
    }
    for (const value of Object.values(node)) visit(value);
  };
  visit(view.paths);
  return view as OpenApiDocument;
}

/** The extension that marks an enum the service enforced before it was declared (every other value was already refused). */
const ALREADY_ENFORCED = 'x-enum-already-enforced';

/**
 * An enum declared where the base had none narrows what clients may send, and is rated breaking;
 * but when the service already refused every other value (`x-enum-already-enforced`, a `grant_type`
 * beyond the three `/token` serves), no request that ever succeeded is refused now. The revision is
 * rated without such an enum wherever the base, at the same place, declared none; once the base has
 * it, every change to it is rated as usual.
 */
export function withoutEnumsAlreadyEnforced(base: OpenApiDocument, revision: OpenApiDocument): OpenApiDocument {
  const view = structuredClone(revision) as Node;
  const visit = (node: unknown, baseNode: unknown): void => {
    if (Array.isArray(node)) return node.forEach((item, index) => visit(item, Array.isArray(baseNode) ? baseNode[index] : undefined));
    if (!isNode(node)) return;
    if (node[ALREADY_ENFORCED] === true && Array.isArray(node.enum) && isNode(baseNode) && baseNode.enum === undefined) delete node.enum;
    for (const [key, child] of Object.entries(node)) visit(child, isNode(baseNode) ? baseNode[key] : undefined);
  };
  visit(view, base);
  return view as OpenApiDocument;
}

const normalized = new WeakMap<OpenApiDocument, Map<boolean, Promise<OpenApiDocument>>>();

/** The base of a review is compared again and again (the tests plant many changes in one api.yaml). */
function normalizeOnce(document: OpenApiDocument, withDocumentation: boolean): Promise<OpenApiDocument> {
  const forms = normalized.get(document) ?? new Map<boolean, Promise<OpenApiDocument>>();
  normalized.set(document, forms);
  const form = forms.get(withDocumentation) ?? normalizeSpec(document, { withDocumentation });
  forms.set(withDocumentation, form);
  return form;
}

export async function compareSpecs(base: SpecSource, revision: SpecSource): Promise<ApiComparison> {
  const pass = async (withDocumentation: boolean) => {
    const [documentBase, documentRevision] = await Promise.all([normalizeOnce(base.document, withDocumentation), normalizeOnce(revision.document, withDocumentation)]);
    const [normalBase, normalRevision] = [fullResourcesOnly(documentBase), fullResourcesOnly(documentRevision)];
    // info.version itself is what the gate checks, not a change to report.
    const asBaseClientsSeeIt = withoutEnumsAlreadyEnforced(normalBase, withoutAnswersToNewParameters(normalBase, normalRevision));
    const sameVersion = { ...asBaseClientsSeeIt, info: { ...normalRevision.info, version: base.version } };
    return { normalBase, normalRevision, report: await runRedoclyDiff(normalBase, sameVersion) };
  };
  const [structural, documented] = await Promise.all([pass(false), pass(true)]);
  const changes = [
    ...toApiChanges(structural.report, structural.normalBase, structural.normalRevision),
    ...toApiChanges({ changes: documented.report.changes.filter(isDocumentationChange) }, documented.normalBase, documented.normalRevision),
  ];
  const bump = requiredBump(changes);
  return {
    base: { label: base.label, version: base.version },
    revision: { label: revision.label, version: revision.version },
    changes,
    requiredBump: bump,
    gate: checkVersion(base.version, revision.version, bump),
  };
}
