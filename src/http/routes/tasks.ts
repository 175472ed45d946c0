import type { ServiceLimits } from '../../config/config';
import type { Store } from '../../data/store';
import type { TaskWakeups } from '../../domain/task-wakeups';
import { offsetQuery } from '../../domain/collection';
import type { Task } from '../../model';
import * as tasks from '../../domain/tasks';
import { principalOf } from '../authenticate';
import { ifMatch, pageTag, sendItem, sendPage, tagWrite } from '../caching';
import type { OperationHandlers, PathTo } from '../operations';
import type { Handler } from '../typed-handler';

export function taskHandlers(store: Store, limits: ServiceLimits, pathTo: PathTo, wakeups?: TaskWakeups): Pick<OperationHandlers, 'listTasks' | 'createTask' | 'getTask' | 'updateTask' | 'deleteTask'> {
  const list: Handler<'listTasks'> = async (req, res) => {
    const { skip = 0, limit = 100, status } = req.query;
    const { items } = await tasks.listTasks(store, principalOf(req), req.params.agent_id, offsetQuery(skip, limit, status, limits.maxResponseBytes));
    sendPage(res, items, items, { etag: pageTag(items) });
  };
  const create: Handler<'createTask'> = async (req, res) => {
    const task = await tasks.createTask(store, principalOf(req), req.params.agent_id, req.body, limits.quotas, wakeups);
    tagWrite(res, task).status(201).location(pathTo('getTask', { agent_id: task.agent_id, task_id: task.id })).json(task);
  };
  const read: Handler<'getTask'> = async (req, res) => {
    const task = await tasks.getTask(store, principalOf(req), req.params.agent_id, req.params.task_id);
    sendItem(res, task, task);
  };
  const update: Handler<'updateTask'> = async (req, res) => {
    const task = await tasks.updateTask(store, principalOf(req), req.params.agent_id, req.params.task_id, req.body, limits.quotas, ifMatch<Task>(req.get('if-match')));
    tagWrite(res, task).json(task);
  };
  const remove: Handler<'deleteTask'> = async (req, res) => {
    await tasks.deleteTask(store, principalOf(req), req.params.agent_id, req.params.task_id, ifMatch<Task>(req.get('if-match')));
    res.status(204).end();
  };

  return { listTasks: list, createTask: create, getTask: read, updateTask: update, deleteTask: remove };
}
