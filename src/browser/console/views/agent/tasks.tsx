// The agent's tasks, newest first and live: events patch the list at once, a throttled read then
// reconciles it. A status filter narrows the list; "Load more" pages further back.
import { useRef, useState } from 'preact/hooks';
import { messageOf } from '../../../api';
import { useEvents } from '../../live';
import { useLoad } from '../../load';
import { Empty, Loading, Problem } from '../../ui';
import { NewTaskForm } from './new-task-form';
import { TaskItem } from './task-item';
import { applyTaskEvent, insertTasks, patchTask, readTaskPage, readTasks, TASK_FILTERS, TASK_PAGE, type Task, type TaskFilter, type TaskList } from './task-list';

function NoTasks({ filter }: { filter: TaskFilter }) {
  if (filter !== 'all') {
    return (
      <Empty>
        <p>This agent has no {filter} tasks. Choose “All” to see every task.</p>
      </Empty>
    );
  }
  return (
    <Empty>
      <p>
        No tasks yet. Add one with the form below (or <code>POST /api/v1/agents/&#123;agent_id&#125;/tasks</code>): it waits as <em>queued</em> until a worker
        signed in with one of this agent’s keys claims it, then shows as <em>running</em>, and <em>succeeded</em> or <em>failed</em> with its result or error.
      </p>
      <p>
        The <a href="/client">client README</a> shows how to run such a worker.
      </p>
    </Empty>
  );
}

export function TasksSection({ agentId }: { agentId: string }) {
  const [filter, setFilter] = useState<TaskFilter>('all');
  // The tasks shown under the current filter, so that a reconcile reads back what "Load more" added.
  const shown = useRef<TaskList | undefined>(undefined);
  const list = useLoad(() => readTasks(agentId, filter, shown.current?.filter === filter ? shown.current.tasks.length : TASK_PAGE), [agentId, filter]);
  shown.current = list.data;
  const [more, setMore] = useState<{ busy: boolean; problem?: string }>({ busy: false });

  useEvents(
    (event) => {
      if (event.agent_id !== agentId || !event.type.startsWith('task.')) return;
      list.patch((tasks) => applyTaskEvent(tasks, agentId, event));
      list.reconcile();
    },
    [agentId, list.patch, list.reconcile],
  );

  const loadMore = async () => {
    const cursor = list.data?.nextCursor;
    if (!cursor) return;
    setMore({ busy: true });
    try {
      const page = await readTaskPage(agentId, filter, TASK_PAGE, cursor);
      // The filter may have changed meanwhile: the page then belongs to a list no longer shown.
      list.patch((tasks) => (tasks.filter === page.filter ? { ...insertTasks(tasks, page.tasks, 'end'), nextCursor: page.nextCursor } : tasks));
      setMore({ busy: false });
    } catch (failure) {
      setMore({ busy: false, problem: messageOf(failure, 'More tasks could not be loaded. Please try again.') });
    }
  };

  const tasks = list.data?.tasks;
  return (
    <section class="agent-tasks" aria-labelledby="tasks-title">
      <div class="section-head">
        <h2 id="tasks-title">Tasks</h2>
        <label class="task-filter">
          Filter by status
          <select
            value={filter}
            onChange={(event) => {
              setFilter(event.currentTarget.value as TaskFilter);
              setMore({ busy: false });
            }}
          >
            {TASK_FILTERS.map((value) => (
              <option value={value}>{value === 'all' ? 'All' : value}</option>
            ))}
          </select>
        </label>
      </div>
      {tasks === undefined && list.loading && <Loading what="the tasks" />}
      {list.error && <Problem message={list.error} onRetry={list.reload} />}
      {tasks !== undefined && tasks.length === 0 && <NoTasks filter={filter} />}
      {tasks !== undefined && tasks.length > 0 && (
        <ul class="tasks" aria-label={filter === 'all' ? 'Tasks, newest first' : `${filter} tasks, newest first`}>
          {tasks.map((task) => (
            <TaskItem key={task.id} task={task} onChanged={(changed: Task) => list.patch((all) => patchTask(all, changed.id, changed))} />
          ))}
        </ul>
      )}
      {list.data?.nextCursor && (
        <div class="load-more">
          <button type="button" class="secondary" disabled={more.busy} onClick={() => void loadMore()}>
            {more.busy ? 'Loading…' : 'Load more'}
          </button>
          {more.problem && <Problem message={more.problem} />}
        </div>
      )}
      <NewTaskForm agentId={agentId} onCreated={(task) => list.patch((all) => insertTasks(all, [task], 'start'))} />
    </section>
  );
}
