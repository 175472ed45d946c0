import type { Store } from '../../data/store';
import * as webhooks from '../../domain/webhooks';
import { principalOf } from '../authenticate';
import { cursorMeta, toListQuery } from '../collection-params';
import { envelope } from '../envelope';
import type { OperationHandlers, PathTo } from '../operations';
import type { Handler } from '../typed-handler';

/** Endpoints and deliveries change behind every read (attempts land at any time): revalidate each. The answer holding a secret is never stored. */
const READ_CACHING = { 'Cache-Control': 'private, no-cache' };
const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * Webhook endpoints and their deliveries: users manage their own, admins and service keys all,
 * agent keys none. `deliveriesDue` is told when a delivery is made due now (sent again).
 */
export function v1WebhookHandlers(
  store: Store,
  rules: webhooks.WebhookRules,
  pathTo: PathTo,
  deliveriesDue: () => void,
): Pick<OperationHandlers, 'listWebhooks' | 'createWebhook' | 'getWebhook' | 'updateWebhook' | 'deleteWebhook' | 'listWebhookDeliveries' | 'retryWebhookDelivery'> {
  const listWebhooks: Handler<'listWebhooks'> = async (req, res) => {
    const page = await webhooks.listWebhooks(store, principalOf(req), toListQuery(req.query, 'cursor', '-created_at'), req.query.workspace_id);
    res.set(READ_CACHING).json({ data: page.items, meta: cursorMeta(page) });
  };
  const createWebhook: Handler<'createWebhook'> = async (req, res) => {
    const webhook = await webhooks.createWebhook(store, principalOf(req), req.body, rules);
    res.status(201).set(NO_STORE).location(pathTo('getWebhook', { webhook_id: webhook.id })).json(envelope(webhook));
  };
  const getWebhook: Handler<'getWebhook'> = async (req, res) => {
    res.set(READ_CACHING).json(envelope(await webhooks.getWebhook(store, principalOf(req), req.params.webhook_id)));
  };
  const updateWebhook: Handler<'updateWebhook'> = async (req, res) => {
    res.set(READ_CACHING).json(envelope(await webhooks.updateWebhook(store, principalOf(req), req.params.webhook_id, req.body, rules)));
  };
  const deleteWebhook: Handler<'deleteWebhook'> = async (req, res) => {
    await webhooks.deleteWebhook(store, principalOf(req), req.params.webhook_id);
    res.status(204).end();
  };
  const listWebhookDeliveries: Handler<'listWebhookDeliveries'> = async (req, res) => {
    const page = await webhooks.listWebhookDeliveries(store, principalOf(req), req.params.webhook_id, toListQuery(req.query, 'cursor', '-created_at'));
    res.set(READ_CACHING).json({ data: page.items, meta: cursorMeta(page) });
  };
  const retryWebhookDelivery: Handler<'retryWebhookDelivery'> = async (req, res) => {
    const delivery = await webhooks.retryWebhookDelivery(store, principalOf(req), req.params.webhook_id, req.params.delivery_id);
    deliveriesDue();
    res.status(202).set(NO_STORE).json(envelope(delivery));
  };
  return { listWebhooks, createWebhook, getWebhook, updateWebhook, deleteWebhook, listWebhookDeliveries, retryWebhookDelivery };
}
