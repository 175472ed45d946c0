import type { Store } from '../../data/store';
import * as agentKeys from '../../domain/agent-keys';
import { principalOf } from '../authenticate';
import { cursorMeta, toListQuery } from '../collection-params';
import { envelope } from '../envelope';
import type { OperationHandlers, PathTo } from '../operations';
import type { Handler } from '../typed-handler';

/** Reads of keys have no versions to revalidate; the answer that holds a secret is never stored. */
const READ_CACHING = { 'Cache-Control': 'private, no-cache' };
const NO_STORE = { 'Cache-Control': 'no-store' };

/** An agent's keys: its owner, an admin or a service key manage them. */
export function v1AgentKeyHandlers(store: Store, pathTo: PathTo): Pick<OperationHandlers, 'listAgentKeys' | 'createAgentKey' | 'getAgentKey' | 'revokeAgentKey'> {
  const listAgentKeys: Handler<'listAgentKeys'> = async (req, res) => {
    const page = await agentKeys.listAgentKeys(store, principalOf(req), req.params.agent_id, toListQuery(req.query, 'cursor', '-created_at'));
    res.set(READ_CACHING).json({ data: page.items, meta: cursorMeta(page) });
  };
  const createAgentKey: Handler<'createAgentKey'> = async (req, res) => {
    const key = await agentKeys.createAgentKey(store, principalOf(req), req.params.agent_id, req.body);
    res.status(201).set(NO_STORE).location(pathTo('getAgentKey', { agent_id: key.agent_id, key_id: key.id })).json(envelope(key));
  };
  const getAgentKey: Handler<'getAgentKey'> = async (req, res) => {
    const key = await agentKeys.getAgentKey(store, principalOf(req), req.params.agent_id, req.params.key_id);
    res.set(READ_CACHING).json(envelope(key));
  };
  const revokeAgentKey: Handler<'revokeAgentKey'> = async (req, res) => {
    await agentKeys.revokeAgentKey(store, principalOf(req), req.params.agent_id, req.params.key_id);
    res.status(204).end();
  };
  return { listAgentKeys, createAgentKey, getAgentKey, revokeAgentKey };
}
