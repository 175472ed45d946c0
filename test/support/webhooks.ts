import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import { createWebhookSealer } from '../../src/app';
import type { Config } from '../../src/config/config';
import { createStore } from '../../src/data/store';
import { createLogger } from '../../src/logger';
import { startWebhookEngine, type WebhookEngine } from '../../src/process/webhook-engine';
import { createWebhookSender, type SenderOptions } from '../../src/process/webhook-sender';

export interface EventRow {
  type: string;
  agent_id: string;
  owner_id: string | null;
  /**
   * The workspace of the event's agent, whose webhooks receive it. By default that of an agent
   * created by `owner_id`, or with no owner: the owner's personal workspace (its id is the
   * owner's), else `service` (as migration 016 filled it in for the events before it).
   */
  workspace_id?: string | null;
  /** Who made the change; none (null) by default, as when the service makes it itself. */
  actor?: { type: 'user' | 'agent_key' | 'service_key'; id: string } | null;
  task_id?: string | null;
  data?: unknown;
}

/** Writes an event row as the service's changes do, and answers its id (the `events` table is all webhooks depend on). */
export async function insertEvent(db: Knex, event: EventRow): Promise<string> {
  const workspaceId = event.workspace_id !== undefined ? event.workspace_id : (event.owner_id ?? (await serviceWorkspaceId(db)));
  const [row] = await db('events')
    .insert({
      type: event.type,
      occurred_at: new Date().toISOString(),
      agent_id: event.agent_id,
      owner_id: event.owner_id,
      workspace_id: workspaceId,
      actor_type: event.actor?.type ?? null,
      actor_id: event.actor?.id ?? null,
      task_id: event.task_id ?? null,
      data: JSON.stringify(event.data ?? {}),
    })
    .returning('id');
  return String(typeof row === 'object' ? (row as { id: unknown }).id : row);
}

/** The id of the `service` workspace, where agents and webhooks without an owner go. */
export async function serviceWorkspaceId(db: Knex): Promise<string> {
  const row = (await db('workspaces').select('id').where({ kind: 'service' }).first()) as { id: unknown } | undefined;
  if (!row) throw new Error('the service workspace is missing: the migrations have not run');
  return String(row.id);
}

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** How the next requests are answered (default 204). */
  answer(handler: (req: http.IncomingMessage, res: http.ServerResponse, received: Received) => void): void;
  close(): Promise<void>;
}

/** A webhook endpoint on 127.0.0.1 that records every request it gets. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let handler: (req: http.IncomingMessage, res: http.ServerResponse, received: Received) => void = (_req, res) => res.writeHead(204).end();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(entry);
      handler(req, res, entry);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    answer: (next) => {
      handler = next;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The delivery engine a serving process runs, over a test's database, without a timer of its own unless `pollMs` is short. */
export function startTestEngine(db: Knex, config: Config, options: Partial<SenderOptions> & Partial<Config['webhooks']> = {}): WebhookEngine {
  const settings = { ...config.webhooks, pollMs: 60_000, ...options };
  return startWebhookEngine({
    store: createStore(db),
    sealer: createWebhookSealer(config.tokenEncryptionKey),
    sender: createWebhookSender({ allowPrivateNetworks: settings.allowPrivateNetworks, timeoutMs: settings.timeoutMs, lookup: options.lookup }),
    settings,
    logger: createLogger({ logLevel: 'silent' }),
  });
}

/** Polls `check` until it passes (or `timeoutMs` passes, and its last failure is thrown). */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}
