import { Router } from 'express';
import type { Store } from '../../data/store';
import * as agents from '../../domain/agents';
import { principalOf } from '../authenticate';
import type { Handler } from '../typed-handler';

export function agentRoutes(store: Store): Router {
  const list: Handler<'listAgents'> = async (req, res) => {
    const { skip = 0, limit = 100, status } = req.query;
    res.json(await agents.listAgents(store, principalOf(req), { skip, limit, status }));
  };
  const create: Handler<'createAgent'> = async (req, res) => {
    const agent = await agents.createAgent(store, principalOf(req), req.body);
    res.status(201).location(`/agents/${agent.id}`).json(agent);
  };
  const read: Handler<'getAgent'> = async (req, res) => {
    res.json(await agents.getAgent(store, principalOf(req), req.params.agent_id));
  };
  const replace: Handler<'replaceAgent'> = async (req, res) => {
    res.json(await agents.replaceAgent(store, principalOf(req), req.params.agent_id, req.body));
  };
  const update: Handler<'updateAgent'> = async (req, res) => {
    res.json(await agents.updateAgent(store, principalOf(req), req.params.agent_id, req.body));
  };
  const remove: Handler<'deleteAgent'> = async (req, res) => {
    await agents.deleteAgent(store, principalOf(req), req.params.agent_id);
    res.status(204).end();
  };

  return Router()
    .get('/agents', list)
    .post('/agents', create)
    .get('/agents/:agent_id', read)
    .put('/agents/:agent_id', replace)
    .patch('/agents/:agent_id', update)
    .delete('/agents/:agent_id', remove);
}
