/** The fleet's load as the metrics read it at each scrape: one grouped query over the tasks. */
import type { Database } from './database';

/** An agent with queued or running tasks, and how many of each. */
export interface AgentLoad {
  agent_id: string;
  queued: number;
  running: number;
}

/**
 * Every agent with a queued or running task, with their counts: one statement, grouped by agent
 * and status (the `(agent_id, status)` index covers it), whatever the number of agents.
 */
export async function readFleetLoad(db: Database): Promise<AgentLoad[]> {
  const rows = (await db('tasks')
    .select('agent_id', 'status')
    .count({ n: '*' })
    .whereIn('status', ['queued', 'running'])
    .groupBy('agent_id', 'status')) as Array<{ agent_id: unknown; status: unknown; n: unknown }>;
  const byAgent = new Map<string, AgentLoad>();
  for (const row of rows) {
    const agentId = String(row.agent_id);
    let load = byAgent.get(agentId);
    if (!load) byAgent.set(agentId, (load = { agent_id: agentId, queued: 0, running: 0 }));
    // PostgreSQL answers count(*) as a string (bigint).
    if (row.status === 'queued') load.queued = Number(row.n);
    else load.running = Number(row.n);
  }
  return [...byAgent.values()];
}
