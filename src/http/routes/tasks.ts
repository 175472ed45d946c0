import { Router } from 'express';
import type { Store } from '../../data/store';
import * as tasks from '../../domain/tasks';
import { principalOf } from '../authenticate';
import type { Handler } from '../typed-handler';

export function taskRoutes(store: Store): Router {
  const list: Handler<'listTasks'> = async (req, res) => {
    const { skip = 0, limit = 100, status } = req.query;
    res.json(await tasks.listTasks(store, principalOf(req), req.params.agent_id, { skip, limit, status }));
  };
  const create: Handler<'createTask'> = async (req, res) => {
    const task = await tasks.createTask(store, principalOf(req), req.params.agent_id, req.body);
    res.status(201).location(`/agents/${task.agent_id}/tasks/${task.id}`).json(task);
  };
  const read: Handler<'getTask'> = async (req, res) => {
    res.json(await tasks.getTask(store, principalOf(req), req.params.agent_id, req.params.task_id));
  };
  const update: Handler<'updateTask'> = async (req, res) => {
    res.json(await tasks.updateTask(store, principalOf(req), req.params.agent_id, req.params.task_id, req.body));
  };
  const remove: Handler<'deleteTask'> = async (req, res) => {
    await tasks.deleteTask(store, principalOf(req), req.params.agent_id, req.params.task_id);
    res.status(204).end();
  };

  return Router()
    .get('/agents/:agent_id/tasks', list)
    .post('/agents/:agent_id/tasks', create)
    .get('/agents/:agent_id/tasks/:task_id', read)
    .patch('/agents/:agent_id/tasks/:task_id', update)
    .delete('/agents/:agent_id/tasks/:task_id', remove);
}
