import type { ServiceLimits } from '../../config/config';
import type { Store } from '../../data/store';
import * as agents from '../../domain/agents';
import { offsetQuery } from '../../domain/collection';
import type { Agent } from '../../model';
import { principalOf } from '../authenticate';
import { ifMatch, pageTag, sendItem, sendPage, tagWrite } from '../caching';
import type { OperationHandlers, PathTo } from '../operations';
import type { Handler } from '../typed-handler';

export function agentHandlers(store: Store, limits: ServiceLimits, pathTo: PathTo): Pick<OperationHandlers, 'listAgents' | 'createAgent' | 'getAgent' | 'replaceAgent' | 'updateAgent' | 'deleteAgent'> {
  const list: Handler<'listAgents'> = async (req, res) => {
    const { skip = 0, limit = 100, status } = req.query;
    const { items } = await agents.listAgents(store, principalOf(req), offsetQuery(skip, limit, status));
    sendPage(res, items, items, { etag: pageTag(items) });
  };
  const create: Handler<'createAgent'> = async (req, res) => {
    const agent = await agents.createAgent(store, principalOf(req), req.body, limits.quotas);
    tagWrite(res, agent).status(201).location(pathTo('getAgent', { agent_id: agent.id })).json(agent);
  };
  const read: Handler<'getAgent'> = async (req, res) => {
    const agent = await agents.getAgent(store, principalOf(req), req.params.agent_id);
    sendItem(res, agent, agent);
  };
  const replace: Handler<'replaceAgent'> = async (req, res) => {
    const agent = await agents.replaceAgent(store, principalOf(req), req.params.agent_id, req.body, ifMatch<Agent>(req.get('if-match')));
    tagWrite(res, agent).json(agent);
  };
  const update: Handler<'updateAgent'> = async (req, res) => {
    const agent = await agents.updateAgent(store, principalOf(req), req.params.agent_id, req.body, ifMatch<Agent>(req.get('if-match')));
    tagWrite(res, agent).json(agent);
  };
  const remove: Handler<'deleteAgent'> = async (req, res) => {
    await agents.deleteAgent(store, principalOf(req), req.params.agent_id, ifMatch<Agent>(req.get('if-match')));
    res.status(204).end();
  };

  return { listAgents: list, createAgent: create, getAgent: read, replaceAgent: replace, updateAgent: update, deleteAgent: remove };
}
