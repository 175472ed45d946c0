import type { ServiceLimits } from '../../config/config';
import type { Store } from '../../data/store';
import type { TaskWakeups } from '../../domain/task-wakeups';
import * as agents from '../../domain/agents';
import * as tasks from '../../domain/tasks';
import type { Agent, Task } from '../../model';
import { principalOf } from '../authenticate';
import { ifMatch, sendItem, sendPage, tagWrite } from '../caching';
import { cursorMeta, pickFields, toListQuery } from '../collection-params';
import { envelope } from '../envelope';
import type { OperationHandlers, PathTo } from '../operations';
import type { Handler } from '../typed-handler';

/** The conventions surface over the same agents and tasks as the root surface. */
export function v1AgentHandlers(store: Store, limits: ServiceLimits, pathTo: PathTo, wakeups?: TaskWakeups): Pick<OperationHandlers, 'listAgentsV1' | 'createAgentV1' | 'getAgentV1' | 'replaceAgentV1' | 'updateAgentV1' | 'deleteAgentV1' | 'listTasksV1' | 'createTaskV1' | 'getTaskV1' | 'updateTaskV1' | 'deleteTaskV1'> {
  const withIncluded = async (list: Agent[], include: string | undefined) => {
    if (include === 'tasks') {
      const embedded = await agents.embedTasks(store, list);
      return list.map((agent) => ({ ...agent, tasks: embedded.get(agent.id) ?? [] }));
    }
    if (include === 'task_counts') {
      const counts = await agents.countTasks(store, list);
      return list.map((agent) => ({ ...agent, task_counts: counts.get(agent.id) }));
    }
    return list;
  };

  const listAgents: Handler<'listAgentsV1'> = async (req, res) => {
    const { fields, include } = req.query;
    const page = await agents.listAgents(store, principalOf(req), toListQuery(req.query, 'cursor', '-created_at'), req.query.workspace_id);
    const data = (await withIncluded(page.items, include)).map((agent) => pickFields(agent, fields, include));
    const body = { data, meta: cursorMeta(page) };
    sendPage(res, body, page.items, { embeds: include });
  };
  const createAgent: Handler<'createAgentV1'> = async (req, res) => {
    const { workspace_id: workspaceId, ...input } = req.body;
    const agent = await agents.createAgent(store, principalOf(req), input, limits.quotas, workspaceId);
    tagWrite(res, agent).status(201).location(pathTo('getAgentV1', { agent_id: agent.id })).json(envelope(agent));
  };
  const getAgent: Handler<'getAgentV1'> = async (req, res) => {
    const { fields, include } = req.query;
    const agent = await agents.getAgent(store, principalOf(req), req.params.agent_id);
    const [shaped] = await withIncluded([agent], include);
    const data = pickFields(shaped ?? agent, fields, include);
    sendItem(res, agent, envelope(data), fields || include ? data : undefined, include);
  };
  const replaceAgent: Handler<'replaceAgentV1'> = async (req, res) => {
    const agent = await agents.replaceAgent(store, principalOf(req), req.params.agent_id, req.body, ifMatch<Agent>(req.get('if-match')));
    tagWrite(res, agent).json(envelope(agent));
  };
  const updateAgent: Handler<'updateAgentV1'> = async (req, res) => {
    const agent = await agents.updateAgent(store, principalOf(req), req.params.agent_id, req.body, ifMatch<Agent>(req.get('if-match')));
    tagWrite(res, agent).json(envelope(agent));
  };
  const deleteAgent: Handler<'deleteAgentV1'> = async (req, res) => {
    await agents.deleteAgent(store, principalOf(req), req.params.agent_id, ifMatch<Agent>(req.get('if-match')));
    res.status(204).end();
  };

  const listTasks: Handler<'listTasksV1'> = async (req, res) => {
    const query = toListQuery(req.query, 'cursor', '-created_at', limits.maxResponseBytes);
    const page = await tasks.listTasks(store, principalOf(req), req.params.agent_id, query);
    const data = page.items.map((task) => pickFields(task, req.query.fields));
    const body = { data, meta: cursorMeta(page) };
    sendPage(res, body, page.items);
  };
  const createTask: Handler<'createTaskV1'> = async (req, res) => {
    const task = await tasks.createTask(store, principalOf(req), req.params.agent_id, req.body, limits.quotas, wakeups);
    tagWrite(res, task).status(201).location(pathTo('getTaskV1', { agent_id: task.agent_id, task_id: task.id })).json(envelope(task));
  };
  const getTask: Handler<'getTaskV1'> = async (req, res) => {
    const task = await tasks.getTask(store, principalOf(req), req.params.agent_id, req.params.task_id);
    const data = pickFields(task, req.query.fields);
    sendItem(res, task, envelope(data), req.query.fields ? data : undefined);
  };
  const updateTask: Handler<'updateTaskV1'> = async (req, res) => {
    const { agent_id: agentId, task_id: taskId } = req.params;
    const task = await tasks.updateTask(store, principalOf(req), agentId, taskId, req.body, limits.quotas, ifMatch<Task>(req.get('if-match')));
    tagWrite(res, task).json(envelope(task));
  };
  const deleteTask: Handler<'deleteTaskV1'> = async (req, res) => {
    await tasks.deleteTask(store, principalOf(req), req.params.agent_id, req.params.task_id, ifMatch<Task>(req.get('if-match')));
    res.status(204).end();
  };

  return { listAgentsV1: listAgents, createAgentV1: createAgent, getAgentV1: getAgent, replaceAgentV1: replaceAgent, updateAgentV1: updateAgent, deleteAgentV1: deleteAgent, listTasksV1: listTasks, createTaskV1: createTask, getTaskV1: getTask, updateTaskV1: updateTask, deleteTaskV1: deleteTask };
}
