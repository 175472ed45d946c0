import type { Response } from 'express';
import type { TokenCipher } from '../auth/oauth/token-cipher';
import type { KeptAnswer } from '../data/records';
import type { Store } from '../data/store';
import { beginIdempotent, completeIdempotent, fingerprintOf, releaseIdempotent, scopeOf, type Attempt, type IdempotencySettings } from '../domain/idempotency';
import { idempotencyKeyReused } from '../errors';
import type { Logger } from '../logger';
import type { Step } from './dispatch';

/** The request header, as api.yaml's `IdempotencyKey` parameter names it (lower case, as Node keeps headers). */
export const IDEMPOTENCY_KEY = 'idempotency-key';
export const IDEMPOTENT_REPLAYED = 'Idempotent-Replayed';

export interface IdempotencyOptions {
  store: Store;
  settings: IdempotencySettings;
  /** Seals the bodies of answers that must not be stored as they are (`Cache-Control: no-store`: a secret). */
  cipher: TokenCipher;
  logger: Logger;
}

type End = Response['end'];

/**
 * The step of every operation that declares `Idempotency-Key`, right before its handler: what was
 * refused before it (credentials, rate limits, validation) never reaches it, so it is never kept.
 * A request without the header passes through. With one, the first request runs and its answer
 * is kept before it is sent (an immediate retry replays it); a retry gets that answer again, with
 * `Idempotent-Replayed: true`, without running the handler.
 */
export function idempotencyStep(options: IdempotencyOptions): Step {
  return async (req, res, next) => {
    const key = req.get(IDEMPOTENCY_KEY);
    if (key === undefined) return next();
    const scope = scopeOf(req.principal, req.ip ?? req.socket.remoteAddress ?? 'unknown');
    const request = { scope, key, fingerprint: fingerprintOf(req.method, req.originalUrl, req.body) };
    const begun = await beginIdempotent(options.store, request, options.settings);
    if (begun.kind === 'replay') return replay(res, begun.answer, sealContext(request), options.cipher);
    keepAnswerOf(res, begun.attempt, options);
    next();
  };
}

/** The authenticated data of a sealed body: it opens under its own principal and key only. */
const sealContext = (request: { scope: string; key: string }) => `idempotency ${request.scope} ${request.key}`;

/**
 * Holds the handler's (or the error handler's) answer until it is kept: `res.end` is the one call
 * every answer goes through, with its status and headers set and its body complete.
 */
function keepAnswerOf(res: Response, attempt: Attempt, options: IdempotencyOptions): void {
  const end = res.end;
  let clientGone = false;
  res.once('close', () => {
    if (!res.writableFinished) clientGone = true;
  });
  res.end = function heldEnd(this: Response, ...args: unknown[]) {
    res.end = end;
    const send = () => (end as (...parameters: unknown[]) => Response).apply(res, args);
    settle(res, attempt, args[0], clientGone, options)
      .catch((error: unknown) => {
        // The answer is sent all the same: the operation ran. The row stays in flight until the bound, then is taken over.
        options.logger.warn({ reqId: res.req.id, err: error instanceof Error ? error.message : String(error) }, 'idempotency key answer not kept');
      })
      .finally(send);
    return res;
  } as End;
}

async function settle(res: Response, attempt: Attempt, chunk: unknown, clientGone: boolean, options: IdempotencyOptions): Promise<void> {
  const status = res.statusCode;
  // 5xx is the service's failure, not an answer to repeat. An answer to a client that left before
  // it was written is kept only when something was created (the retry must learn of it); a claim
  // whose client left gives its task back and answers 204, which a retry must not get again.
  if (status >= 500 || res.headersSent || (clientGone && status !== 201)) return releaseIdempotent(options.store, attempt);
  const cacheControl = headerText(res.getHeader('cache-control'));
  const text = chunk === undefined || chunk === null ? null : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
  const sealed = text !== null && /\bno-store\b/i.test(cacheControl ?? '');
  const answer: KeptAnswer = {
    status,
    content_type: headerText(res.getHeader('content-type')),
    location: headerText(res.getHeader('location')),
    etag: headerText(res.getHeader('etag')),
    cache_control: cacheControl,
    body: sealed ? options.cipher.seal(text, sealContext(attempt)) : text,
    sealed,
  };
  if (!(await completeIdempotent(options.store, attempt, answer))) {
    options.logger.warn({ reqId: res.req.id }, 'idempotency key was taken over before its answer was kept');
  }
}

function replay(res: Response, answer: KeptAnswer, context: string, cipher: TokenCipher): void {
  let body = answer.body;
  if (answer.sealed && body !== null) {
    try {
      body = cipher.open(body, context);
    } catch {
      // Sealed with another TOKEN_ENCRYPTION_KEY (an instance configured differently, or an
      // ephemeral key that a restart replaced): the answer cannot be given again, and the request
      // must not run twice.
      throw idempotencyKeyReused('The answer to this Idempotency-Key cannot be read on this instance (TOKEN_ENCRYPTION_KEY differs): use a new key');
    }
  }
  res.status(answer.status);
  const headers: Record<string, string> = { [IDEMPOTENT_REPLAYED]: 'true' };
  if (answer.content_type !== null) headers['Content-Type'] = answer.content_type;
  if (answer.location !== null) headers.Location = answer.location;
  if (answer.etag !== null) headers.ETag = answer.etag;
  if (answer.cache_control !== null) headers['Cache-Control'] = answer.cache_control;
  res.set(headers);
  res.end(body ?? undefined);
}

function headerText(value: number | string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : String(value);
}
