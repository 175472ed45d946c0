import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { Webhook } from 'standardwebhooks';
import type { AttemptResult } from '../domain/webhook-deliveries';

/** The most of an answer's body that is read; the connection is dropped beyond it. */
export const MAX_ANSWER_BYTES = 64 * 1024;

const USER_AGENT = 'agent-fleet-webhooks/1';
/** Errors are stored and shown to the endpoint's owner: one line, bounded. */
const MAX_ERROR_LENGTH = 300;

export interface Signed {
  url: string;
  /** The event's id: `webhook-id`, the same on every attempt. */
  eventId: string;
  body: string;
  /** `whsec_...` */
  secret: string;
}

export interface WebhookSender {
  /** One POST of a signed event; never rejects: every failure is in the result. */
  send(delivery: Signed): Promise<AttemptResult>;
}

export interface SenderOptions {
  allowPrivateNetworks: boolean;
  timeoutMs: number;
  /** Name resolution for connections (tests make a name resolve elsewhere); node:dns's by default. */
  lookup?: LookupFunction;
  clock?: () => number;
}

/**
 * Sends deliveries as the Standard Webhooks specification describes them. Connections go through
 * request-filtering-agent: the address is checked after name resolution, at connect time, so a
 * name that resolved to a public address at creation and to a private one now is refused (DNS
 * rebinding). Redirects are never followed (a 3xx is a failed attempt), the whole attempt is
 * bounded by `timeoutMs`, and at most 64 KiB of the answer is read before the socket is dropped.
 */
export function createWebhookSender({ allowPrivateNetworks, timeoutMs, lookup, clock = Date.now }: SenderOptions): WebhookSender {
  const filtering = { allowPrivateIPAddress: allowPrivateNetworks, allowMetaIPAddress: allowPrivateNetworks, keepAlive: false };
  const httpAgent = new RequestFilteringHttpAgent(filtering);
  const httpsAgent = new RequestFilteringHttpsAgent(filtering);
  return {
    send: (delivery) =>
      new Promise<AttemptResult>((resolve) => {
        const startedAt = clock();
        const started = performance.now();
        let statusCode: number | null = null;
        let settled = false;
        const finish = (error: string | null) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          request.destroy();
          resolve({ startedAt, durationMs: performance.now() - started, statusCode, error: error === null ? null : oneLine(error) });
        };
        let request: http.ClientRequest;
        try {
          const url = new URL(delivery.url);
          const timestamp = new Date(clock());
          const signature = new Webhook(delivery.secret).sign(delivery.eventId, timestamp, delivery.body);
          request = (url.protocol === 'https:' ? https : http).request(url, {
            method: 'POST',
            agent: url.protocol === 'https:' ? httpsAgent : httpAgent,
            lookup,
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(delivery.body),
              'user-agent': USER_AGENT,
              'webhook-id': delivery.eventId,
              'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
              'webhook-signature': signature,
            },
          });
        } catch (error) {
          resolve({ startedAt, durationMs: performance.now() - started, statusCode: null, error: oneLine(`not sent: ${messageOf(error)}`) });
          return;
        }
        const timer = setTimeout(() => finish(statusCode === null ? `no answer within ${timeoutMs} ms` : null), timeoutMs);
        request.on('error', (error) => finish(statusCode === null ? messageOf(error) : null));
        request.on('response', (response) => {
          statusCode = response.statusCode ?? null;
          const outcome = judge(statusCode, response.headers.location);
          let read = 0;
          response.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read >= MAX_ANSWER_BYTES) finish(outcome);
          });
          response.on('end', () => finish(outcome));
          response.on('error', () => finish(outcome));
          // The answer's status decides; the body only has to be taken off the wire, up to the bound.
          if (outcome !== null) finish(outcome);
        });
        request.end(delivery.body);
      }),
  };
}

/** Null for a success (2xx); otherwise why the attempt failed. */
function judge(statusCode: number | null, location: string | undefined): string | null {
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) return null;
  if (statusCode !== null && statusCode >= 300 && statusCode < 400) {
    return `redirect answered (${statusCode}${location ? ` to ${location}` : ''}): redirects are not followed`;
  }
  return `answered ${statusCode ?? 'no status'}: only 2xx is a success`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_ERROR_LENGTH ? `${line.slice(0, MAX_ERROR_LENGTH - 1)}…` : line;
}
