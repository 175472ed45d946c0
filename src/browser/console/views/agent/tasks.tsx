// The agent's tasks as a table, a page at a time: the service filters by status, finds titles by
// their beginning and sorts by the column a person clicks, so that all three hold across every task
// of a busy agent, not only those loaded. Events patch the rows shown at once; a throttled read then
// reconciles the page. Rows chosen with their checkboxes can be cancelled or retried together.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useEvents } from '../../live';
import { useLoad } from '../../load';
import { Ago, Empty, Loading, Problem, StatusBadge, useNow } from '../../ui';
import { hrefOf } from '../../route';
import { BulkActions } from './bulk-actions';
import { NewTaskForm } from './new-task-form';
import { useViewRights } from '../../workspaces';
import {
  applyTaskEvent,
  FIRST_DESCENDING,
  isNewestFirst,
  matchesQuery,
  NEWEST_FIRST,
  patchRow,
  readTaskPage,
  TASK_FILTERS,
  TASK_PAGE,
  type Sort,
  type SortField,
  type TaskFilter,
  type TaskPage,
  type TaskQuery,
  type TaskRow,
} from './task-list';

/** A search waits this long after the last key, so that typing a word reads once. */
const SEARCH_PAUSE_MS = 350;

const COLUMNS: ReadonlyArray<{ field: SortField; label: string; class: string }> = [
  { field: 'title', label: 'Title', class: 'col-title' },
  { field: 'status', label: 'Status', class: 'col-status' },
  { field: 'priority', label: 'Priority', class: 'col-priority' },
  { field: 'attempts', label: 'Attempts', class: 'col-attempts' },
  { field: 'created_at', label: 'Created', class: 'col-created' },
  { field: 'updated_at', label: 'Updated', class: 'col-updated' },
];

const sortWords = (sort: Sort): string => {
  const label = COLUMNS.find((column) => column.field === sort.field)?.label.toLowerCase() ?? sort.field;
  if (sort.field === 'created_at' || sort.field === 'updated_at') return `${label}, ${sort.descending ? 'newest' : 'oldest'} first`;
  if (sort.field === 'title' || sort.field === 'status') return `${label}, ${sort.descending ? 'Z to A' : 'A to Z'}`;
  return `${label}, ${sort.descending ? 'highest' : 'lowest'} first`;
};

function NoTasks({ query }: { query: TaskQuery }) {
  if (query.titleSearch === '' && query.status !== 'all') {
    return (
      <Empty>
        <p>This agent has no {query.status} tasks. Choose “All” to see every task.</p>
      </Empty>
    );
  }
  if (query.titleSearch !== '') {
    const what = [query.status !== 'all' ? `${query.status} tasks` : 'tasks', query.titleSearch !== '' ? `with “${query.titleSearch}” in the title` : ''].filter(Boolean).join(' ');
    return (
      <Empty>
        <p>This agent has no {what}. Choose “All” and clear the search to see every task.</p>
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

function SortHeader({ column, sort, onSort }: { column: (typeof COLUMNS)[number]; sort: Sort; onSort: (field: SortField) => void }) {
  const active = sort.field === column.field;
  return (
    <th scope="col" class={column.class} aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : undefined}>
      <button type="button" class="sort" onClick={() => onSort(column.field)}>
        {column.label}
        <span class="sort-mark" aria-hidden="true">
          {active ? (sort.descending ? '▼' : '▲') : '↕'}
        </span>
      </button>
    </th>
  );
}

function TaskTableRow({ task, selected, onSelect, now }: { task: TaskRow; selected: boolean; onSelect: (on: boolean) => void; now: number }) {
  return (
    <tr class={`task-row task-row-${task.status}${selected ? ' task-row-selected' : ''}`}>
      <td class="col-select">
        <input type="checkbox" checked={selected} onChange={(event) => onSelect(event.currentTarget.checked)} aria-label={`Select ${task.title}`} />
      </td>
      <th scope="row" class="col-title">
        <a href={hrefOf.task(task.agent_id, task.id)}>{task.title}</a>
        {task.status !== 'succeeded' && task.last_error && <span class="row-error">{task.last_error}</span>}
      </th>
      <td class="col-status">
        <StatusBadge status={task.status} />
      </td>
      <td class="col-priority" data-label="Priority">
        {task.priority}
      </td>
      <td class="col-attempts" data-label="Attempts">
        {task.attempts}/{task.max_attempts}
      </td>
      <td class="col-created" data-label="Created">
        <Ago at={task.created_at} now={now} />
      </td>
      <td class="col-updated" data-label="Updated">
        <Ago at={task.updated_at} now={now} />
      </td>
    </tr>
  );
}

export function TasksSection({ agentId }: { agentId: string }) {
  const [status, setStatus] = useState<TaskFilter>('all');
  const [sort, setSort] = useState<Sort>(NEWEST_FIRST);
  const [search, setSearch] = useState('');
  const [titleSearch, setTitleSearch] = useState('');
  // The cursors of the pages walked through, the shown page's last: "Previous" goes back along them.
  const [trail, setTrail] = useState<Array<string | null>>([null]);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const query = useMemo<TaskQuery>(() => ({ status, sort, titleSearch }), [status, sort, titleSearch]);
  const cursor = trail[trail.length - 1] ?? null;
  // The rows shown stay while the next page or another sort is read: "Next" keeps its place and focus.
  const page = useLoad(() => readTaskPage(agentId, query, cursor), [agentId, query, cursor], { keep: true });
  const now = useNow(30_000);
  const heading = useRef<HTMLHeadingElement>(null);
  const firstPage = trail.length === 1;

  // A new query or page shows other rows: a choice made among the old ones goes with them.
  useEffect(() => setSelected(new Set()), [query, cursor]);
  useEffect(() => {
    const typed = search.trim();
    if (typed === titleSearch) return undefined;
    const timer = setTimeout(() => changeQuery(() => setTitleSearch(typed)), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [search]);

  useEvents(
    (event) => {
      if (event.agent_id !== agentId || !event.type.startsWith('task.')) return;
      page.patch((shown) => applyTaskEvent(shown, firstPage, agentId, event));
      page.reconcile();
    },
    [agentId, firstPage, page.patch, page.reconcile],
  );

  const changeQuery = (change: () => void) => {
    change();
    setTrail([null]);
  };
  const sortBy = (field: SortField) => changeQuery(() => setSort((current) => (current.field === field ? { field, descending: !current.descending } : { field, descending: FIRST_DESCENDING[field] })));
  const shown: TaskPage | undefined = page.data;
  const tasks = shown?.tasks;
  const canGo = { previous: trail.length > 1 && !page.loading, next: Boolean(shown?.nextCursor) && !page.loading };
  const turn = (to: 'next' | 'previous') => {
    if (!canGo[to]) return;
    const next = shown?.nextCursor;
    if (to === 'next' && next) setTrail([...trail, next]);
    if (to === 'previous') setTrail(trail.slice(0, -1));
    heading.current?.scrollIntoView({ block: 'start' });
  };
  const chosen = (tasks ?? []).filter((task) => selected.has(task.id));
  const allChosen = tasks !== undefined && tasks.length > 0 && chosen.length === tasks.length;
  const select = (taskId: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(taskId);
      else next.delete(taskId);
      return next;
    });
  const from = (trail.length - 1) * TASK_PAGE + 1;
  const { operate } = useViewRights();

  return (
    <section class="agent-tasks" aria-labelledby="tasks-title">
      <div class="section-head">
        <h2 id="tasks-title" ref={heading} tabIndex={-1}>
          Tasks
        </h2>
        <div class="table-controls">
          <label class="task-filter">
            Filter by status
            <select value={status} onChange={(event) => changeQuery(() => setStatus(event.currentTarget.value as TaskFilter))}>
              {TASK_FILTERS.map((value) => (
                <option value={value}>{value === 'all' ? 'All' : value}</option>
              ))}
            </select>
          </label>
          <form
            class="task-search"
            role="search"
            onSubmit={(event) => {
              event.preventDefault();
              const typed = search.trim();
              if (typed !== titleSearch) changeQuery(() => setTitleSearch(typed));
            }}
          >
            <label>
              Search titles
              <input type="search" value={search} maxLength={200} onInput={(event) => setSearch(event.currentTarget.value)} />
            </label>
          </form>
        </div>
      </div>
      {operate && (
        <BulkActions
          agentId={agentId}
          chosen={chosen}
          onChanged={(changed) => {
            for (const task of changed) page.patch((current) => patchRow(current, task.id, task));
            setSelected(new Set());
          }}
        />
      )}
      {tasks === undefined && page.loading && <Loading what="the tasks" />}
      {page.error && <Problem message={page.error} onRetry={page.reload} />}
      {tasks !== undefined && tasks.length === 0 && firstPage && !page.loading && <NoTasks query={query} />}
      {tasks !== undefined && (tasks.length > 0 || !firstPage) && (
        <table class={`task-table${page.loading ? ' task-table-reading' : ''}`} aria-busy={page.loading ? 'true' : 'false'}>
          <caption class="visually-hidden">
            Tasks {tasks.length === 0 ? 'none on this page' : `${from} to ${from + tasks.length - 1}`}, sorted by {sortWords(sort)}
            {status !== 'all' ? `, only ${status}` : ''}
            {titleSearch !== '' ? `, titles containing “${titleSearch}”` : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col" class="col-select">
                <input
                  type="checkbox"
                  checked={allChosen}
                  indeterminate={chosen.length > 0 && !allChosen}
                  disabled={tasks.length === 0}
                  onChange={(event) => setSelected(event.currentTarget.checked ? new Set(tasks.map((task) => task.id)) : new Set())}
                  aria-label="Select every task on this page"
                />
              </th>
              {COLUMNS.map((column) => (
                <SortHeader key={column.field} column={column} sort={sort} onSort={sortBy} />
              ))}
            </tr>
          </thead>
          <tbody>
            {tasks.map((task) => (
              <TaskTableRow key={task.id} task={task} selected={selected.has(task.id)} onSelect={(on) => select(task.id, on)} now={now} />
            ))}
          </tbody>
        </table>
      )}
      {tasks !== undefined && (trail.length > 1 || shown?.nextCursor) && (
        <nav class="pager" aria-label="Pages of tasks">
          {/* aria-disabled, not disabled: a button that turns disabled under the keyboard's focus would drop it. */}
          <button type="button" class="secondary" aria-disabled={canGo.previous ? undefined : 'true'} onClick={() => turn('previous')}>
            <span aria-hidden="true">← </span>Previous
          </button>
          <span class="pager-where">
            Page {trail.length}
            {tasks.length > 0 ? ` · tasks ${from}–${from + tasks.length - 1}` : ''}
          </span>
          <button type="button" class="secondary" aria-disabled={canGo.next ? undefined : 'true'} onClick={() => turn('next')}>
            Next<span aria-hidden="true"> →</span>
          </button>
        </nav>
      )}
      {operate && (
        <NewTaskForm
          agentId={agentId}
          onCreated={(task) =>
            page.patch((current) =>
              firstPage && isNewestFirst(current.query.sort) && matchesQuery(current.query, task) && !current.tasks.some((row) => row.id === task.id) ? { ...current, tasks: [task, ...current.tasks] } : current,
            )
          }
        />
      )}
    </section>
  );
}
