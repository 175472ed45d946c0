import { createHash } from 'node:crypto';
import type { Response } from 'express';
import type { Precondition } from '../domain/precondition';

interface Versioned {
  id: string;
  updated_at: string;
}

const digest = (text: string): string => createHash('sha256').update(text).digest('base64url').slice(0, 27);

/**
 * The strong ETag of one version of one item. `updated_at` moves on every change (see
 * nextTimestamp), and ids are unique across resources, so a tag never names two versions.
 */
export function versionTag(item: Versioned): string {
  return `"${digest(`${item.id}@${item.updated_at}`)}"`;
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
 * Answers a read with its validators. Express turns it into 304 when `If-None-Match` (or, without
 * it, `If-Modified-Since`) shows the caller's copy is current.
 */
export function sendRead(res: Response, body: unknown, validators: { etag: string; lastModified?: string }): void {
  res.set({ ETag: validators.etag, 'Cache-Control': 'private, no-cache' });
  if (validators.lastModified) res.set('Last-Modified', new Date(validators.lastModified).toUTCString());
  res.json(body);
}

/** A page: a weak tag of its content (or the one given), Last-Modified from its newest item. */
export function sendPage(res: Response, body: unknown, items: readonly Versioned[], etag: string = contentTag(body)): void {
  sendRead(res, body, { etag, lastModified: newestChange(items) });
}

/** One item: its version's strong tag, or a weak tag of `reshaped` when `fields`/`include` changed what is sent. */
export function sendItem(res: Response, item: Versioned, body: unknown, reshaped?: unknown): void {
  sendRead(res, body, { etag: reshaped === undefined ? versionTag(item) : contentTag(reshaped), lastModified: item.updated_at });
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
