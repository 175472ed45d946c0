import { randomBytes } from 'node:crypto';
import { isForeignKeyViolation } from '../data/database-errors';
import { newId, nextTimestamp } from '../data/ids';
import type { Store } from '../data/store';
import { notAuthenticated, stateConflict, webhookDeliveryNotFound, webhookNotFound } from '../errors';
import type { Webhook, WebhookCreate, WebhookCreated, WebhookDelivery, WebhookUpdate } from '../model';
import { actorOf, assertNotAgentKey, assertRole, memberScope, ownerOf, type Principal } from './access';
import { changesOf, recordAuditEvent } from './events';
import type { ListQuery, ListResult } from './collection';
import { assertDeliverableUrl, type ResolveHost } from './webhook-targets';
import { reachWorkspace, workspaceOfCreate } from './workspaces';

/** What starts every signing secret (the Standard Webhooks convention): the rest is 32 random bytes in base64. */
export const WEBHOOK_SECRET_MARK = 'whsec_';

/** How deliveries are made: the configuration (WEBHOOK_*) as the engine and the routes use it. */
export interface WebhookSettings {
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: endpoints may be on loopback, private and reserved addresses. */
  allowPrivateNetworks: boolean;
  /** Production: endpoints must be https. */
  httpsOnly: boolean;
  /** WEBHOOK_TIMEOUT_MS: an attempt that has no answer by then failed. */
  timeoutMs: number;
  /** WEBHOOK_RETRY_SCHEDULE: the wait before each retry; once spent, the delivery has failed. */
  retryScheduleMs: readonly number[];
  /** WEBHOOK_POLL_MS: how often each process looks for new events and due deliveries. */
  pollMs: number;
  /** WEBHOOK_CONCURRENCY: attempts one process makes at once. */
  concurrency: number;
}

/** Seals secrets at rest (AES-256-GCM under a key derived from TOKEN_ENCRYPTION_KEY), bound to their endpoint. */
export interface SecretSealer {
  seal(plaintext: string, context: string): string;
  /** Throws when the value was not sealed with this key and context. */
  open(sealed: string, context: string): string;
}

/** What creating and changing endpoints needs beside the store. */
export interface WebhookRules {
  sealer: SecretSealer;
  resolveHost: ResolveHost;
  allowPrivateNetworks: boolean;
  httpsOnly: boolean;
}

/** The context a secret is sealed in: a sealed secret copied to another endpoint's row does not open. */
export const secretContext = (webhookId: string): string => `webhook-secret:${webhookId}`;

/**
 * Members reach their workspaces' endpoints (another workspace's reads as missing) with the
 * operation's role; admins and service keys every one; agent keys none (403).
 */
async function findManaged(store: Store, principal: Principal, webhookId: string) {
  assertNotAgentKey(principal);
  const reached = await store.webhooks.find(webhookId, memberScope(principal));
  if (!reached) throw webhookNotFound();
  assertRole(principal, reached.role);
  return reached.item;
}

const withoutSecret = ({ secret_sealed: _secret, after_event_id: _after, ...webhook }: Webhook & { secret_sealed: string; after_event_id: number }): Webhook => webhook;

export async function listWebhooks(store: Store, principal: Principal, query: ListQuery, workspaceId?: string): Promise<ListResult<Webhook>> {
  assertNotAgentKey(principal);
  if (workspaceId !== undefined) {
    await reachWorkspace(store, principal, workspaceId);
    return store.webhooks.list(query, { workspaceId });
  }
  const memberId = memberScope(principal);
  return store.webhooks.list(query, memberId === undefined ? {} : { memberId });
}

/**
 * A new endpoint of a workspace (the one named, else the caller's personal one, a service key's
 * `service`), which receives the workspace's events committed after it (the newest event's id is
 * its starting mark), and its signing secret, in this answer only: the store keeps it sealed.
 */
export async function createWebhook(store: Store, principal: Principal, input: WebhookCreate, rules: WebhookRules, clock: () => number = Date.now): Promise<WebhookCreated> {
  assertNotAgentKey(principal);
  const workspaceId = await workspaceOfCreate(store, principal, input.workspace_id);
  await assertDeliverableUrl(input.url, rules);
  const id = newId();
  const secret = `${WEBHOOK_SECRET_MARK}${randomBytes(32).toString('base64')}`;
  const at = new Date(clock()).toISOString();
  const webhook: Webhook = {
    id,
    owner_id: ownerOf(principal),
    workspace_id: workspaceId,
    url: input.url,
    types: input.types ?? null,
    description: input.description ?? null,
    enabled: true,
    created_at: at,
    updated_at: at,
  };
  try {
    await store.transaction(async (tx) => {
      // Again, locked, now that the URL is known to be deliverable (resolving it is no time to hold a lock).
      if (input.workspace_id !== undefined) await reachWorkspace(tx, principal, workspaceId, { lock: true });
      await tx.webhooks.insert({ ...webhook, secret_sealed: rules.sealer.seal(secret, secretContext(id)), after_event_id: await tx.webhooks.newestEventId() });
      recordAuditEvent(tx, actorOf(principal), 'webhook.created', workspaceId, { id, url: webhook.url, types: webhook.types, description: webhook.description, enabled: true });
    });
  } catch (error) {
    // The owner was deleted meanwhile: their credential no longer names anyone.
    if (isForeignKeyViolation(error)) throw notAuthenticated();
    throw error;
  }
  return { ...webhook, secret };
}

export async function getWebhook(store: Store, principal: Principal, webhookId: string): Promise<Webhook> {
  return withoutSecret(await findManaged(store, principal, webhookId));
}

/** A change of an endpoint and its `webhook.updated` event, in one transaction; its new URL is checked first (resolving it holds no lock). */
export async function updateWebhook(store: Store, principal: Principal, webhookId: string, input: WebhookUpdate, rules: WebhookRules): Promise<Webhook> {
  await findManaged(store, principal, webhookId);
  if (input.url !== undefined) await assertDeliverableUrl(input.url, rules);
  return store.transaction(async (tx) => {
    const current = await findManaged(tx, principal, webhookId);
    const changes = {
      ...(input.url === undefined ? {} : { url: input.url }),
      ...(input.types === undefined ? {} : { types: input.types }),
      ...(input.description === undefined ? {} : { description: input.description }),
      ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
      updated_at: nextTimestamp(current.updated_at),
    };
    await tx.webhooks.update(webhookId, changes);
    const updated = withoutSecret({ ...current, ...changes });
    recordAuditEvent(tx, actorOf(principal), 'webhook.updated', current.workspace_id, { id: webhookId, ...changesOf(withoutSecret(current), updated) });
    return updated;
  });
}

export async function deleteWebhook(store: Store, principal: Principal, webhookId: string): Promise<void> {
  await store.transaction(async (tx) => {
    const webhook = await findManaged(tx, principal, webhookId);
    if (!(await tx.webhooks.remove(webhookId))) throw webhookNotFound();
    recordAuditEvent(tx, actorOf(principal), 'webhook.deleted', webhook.workspace_id, { id: webhookId, url: webhook.url });
  });
}

export async function listWebhookDeliveries(store: Store, principal: Principal, webhookId: string, query: ListQuery): Promise<ListResult<WebhookDelivery>> {
  await findManaged(store, principal, webhookId);
  return store.webhooks.listDeliveries(webhookId, query);
}

/**
 * Sends a delivery again: it is `pending` and due now, whatever its status (a pending one is
 * brought forward), and the senders of every process take it as any due delivery, one attempt at
 * a time. Refused (409) while a sender holds it, and while the endpoint is disabled (nothing is
 * sent to it). Answers the delivery as the log lists it.
 */
export async function retryWebhookDelivery(store: Store, principal: Principal, webhookId: string, deliveryId: string, clock: () => number = Date.now): Promise<WebhookDelivery> {
  const webhook = await findManaged(store, principal, webhookId);
  if (!(await store.webhooks.findDelivery(webhookId, deliveryId))) throw webhookDeliveryNotFound();
  if (!webhook.enabled) throw stateConflict('The webhook is disabled and is sent nothing: enable it, then send the delivery again');
  const outcome = await store.webhooks.makeDue(webhookId, deliveryId, new Date(clock()).toISOString());
  if (outcome === 'claimed') throw stateConflict('An attempt of this delivery is under way: its outcome will be in the delivery log');
  // Missing now: the endpoint was deleted meanwhile, its deliveries with it.
  if (outcome === 'missing') throw webhookDeliveryNotFound();
  return (await store.webhooks.findDelivery(webhookId, deliveryId)) ?? Promise.reject(webhookDeliveryNotFound());
}
