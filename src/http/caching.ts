import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { preconditionFailed } from '../errors';
import type { Precondition } from '../domain/precondition';

interface Versioned {
  id: string;
  updated_at: string;
}

const digest = (text: string): string => createHash('sha256').update(text).digest('base64url').slice(0, 27);

/**
 * The strong ETag of one version of one item: its id and its `updated_at`, as they are. `updated_at`
 * moves by a millisecond at least on every change (see nextTimestamp), and ids are unique across
 * resources, so a tag never names two versions. Both are in the representation already: a digest
 * would hide nothing, and cost each write 12 to 15 µs under load.
 */
export function versionTag(item: Versioned): string {
  return `"${item.id}.${item.updated_at}"`;
}

/**
 * The weak ETag of a page whose representation is just its items: their versions, in order,
 * decide it, so there is no need to serialise and hash the whole body.
 */
export function pageTag(items: readonly Versioned[]): string {
  return `W/"${digest(items.map((item) => `${item.id}@${item.updated_at}`).join(','))}"`;
}

/** A weak ETag for a representation assembled from several items (pages, sparse fields, includes). */
export function contentTag(content: unknown): string {
  return `W/"${digest(JSON.stringify(content))}"`;
}

/**
 * Answers a read with its validators, after evaluating the request's preconditions in RFC 9110
 * section 13.2.2's order: If-Match (412), else If-Unmodified-Since (412); then If-None-Match
 * (304), else If-Modified-Since (304). The request's own Cache-Control plays no part: fetch adds
 * `no-cache` to every conditional request, and the origin server must still answer 304.
 */
export function sendRead(res: Response, body: unknown, validators: { etag: string; lastModified?: string }): void {
  res.setHeader('ETag', validators.etag);
  res.setHeader('Cache-Control', 'private, no-cache');
  if (validators.lastModified) res.setHeader('Last-Modified', new Date(validators.lastModified).toUTCString());
  const outcome = evaluatePreconditions(res.req, validators);
  if (outcome === 'precondition_failed') throw preconditionFailed();
  if (outcome === 'not_modified') {
    res.status(304).end();
    return;
  }
  res.json(body);
}

type Validators = { etag: string; lastModified?: string };

function evaluatePreconditions(req: Request, { etag, lastModified }: Validators): 'proceed' | 'not_modified' | 'precondition_failed' {
  const modifiedSeconds = lastModified === undefined ? undefined : Math.floor(Date.parse(lastModified) / 1000);
  const { headers } = req;
  const ifMatch = headers['if-match'];
  if (ifMatch !== undefined) {
    if (!listMatches(ifMatch, etag, strongMatch)) return 'precondition_failed';
  } else {
    const since = httpDateSeconds(headers['if-unmodified-since']);
    if (since !== undefined && modifiedSeconds !== undefined && modifiedSeconds > since) return 'precondition_failed';
  }
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined) return listMatches(ifNoneMatch, etag, weakMatch) ? 'not_modified' : 'proceed';
  const since = httpDateSeconds(headers['if-modified-since']);
  if (since !== undefined && modifiedSeconds !== undefined && modifiedSeconds <= since) return 'not_modified';
  return 'proceed';
}

/** `*` matches any current representation; otherwise one of the listed entity tags must. */
function listMatches(header: string, etag: string, compare: (a: string, b: string) => boolean): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => compare(tag.trim(), etag));
}

const opaque = (tag: string): string => (tag.startsWith('W/') ? tag.slice(2) : tag);
const weakMatch = (a: string, b: string): boolean => opaque(a) === opaque(b);
const strongMatch = (a: string, b: string): boolean => !a.startsWith('W/') && !b.startsWith('W/') && a === b;

/** An HTTP-date in whole seconds; anything unparseable is ignored, as RFC 9110 section 13.1.3 says. */
function httpDateSeconds(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : Math.floor(time / 1000);
}

/**
 * A page: a weak tag of its content (or the one given), Last-Modified from its newest item. With
 * `include`, the page embeds other resources whose changes no item's `updated_at` follows: then
 * it has no Last-Modified, and only its ETag says whether it changed.
 */
export function sendPage(res: Response, body: unknown, items: readonly Versioned[], options: { etag?: string; embeds?: unknown } = {}): void {
  sendRead(res, body, { etag: options.etag ?? contentTag(body), ...(options.embeds ? {} : { lastModified: newestChange(items) }) });
}

/**
 * One item: its version's strong tag, or a weak tag of `reshaped` when `fields`/`include` changed
 * what is sent; without Last-Modified when `include` embeds other resources (as for a page).
 */
export function sendItem(res: Response, item: Versioned, body: unknown, reshaped?: unknown, embeds?: unknown): void {
  sendRead(res, body, { etag: reshaped === undefined ? versionTag(item) : contentTag(reshaped), ...(embeds ? {} : { lastModified: item.updated_at }) });
}

/** The newest `updated_at` of a page, for its Last-Modified. */
function newestChange(items: readonly Versioned[]): string | undefined {
  return items.reduce<string | undefined>((newest, item) => (newest === undefined || item.updated_at > newest ? item.updated_at : newest), undefined);
}

/** `If-Match` as a precondition on the current item: strong comparison, `*` matches any version. */
export function ifMatch<T extends Versioned>(header: string | undefined): Precondition<T> | undefined {
  if (header === undefined) return undefined;
  const tags = header.split(',').map((tag) => tag.trim());
  return (current) => tags.includes('*') || tags.includes(versionTag(current));
}

/** A write's answer carries the new version's tag, ready for the next If-Match. */
export function tagWrite(res: Response, item: Versioned): Response {
  return res.set('ETag', versionTag(item));
}
