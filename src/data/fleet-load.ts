/** The fleet's load as the metrics read it at each scrape: one read of the kept task counters. */
import type { Database } from './database';

/** An agent with queued or running tasks, and how many of each. */
export interface AgentLoad {
  agent_id: string;
  queued: number;
  running: number;
}

/**
 * Every agent with a queued or running task, with their counts: one statement over the counters
 * the database keeps per agent and status, whatever the number of tasks.
 */
export async function readFleetLoad(db: Database): Promise<AgentLoad[]> {
  const rows = (await db('agent_task_counts').select('agent_id', 'status', 'n').whereIn('status', ['queued', 'running']).andWhere('n', '>', 0)) as Array<{
    agent_id: unknown;
    status: unknown;
    n: unknown;
  }>;
  const byAgent = new Map<string, AgentLoad>();
  for (const row of rows) {
    const agentId = String(row.agent_id);
    let load = byAgent.get(agentId);
    if (!load) byAgent.set(agentId, (load = { agent_id: agentId, queued: 0, running: 0 }));
    // PostgreSQL answers a bigint as a string.
    if (row.status === 'queued') load.queued = Number(row.n);
    else load.running = Number(row.n);
  }
  return [...byAgent.values()];
}
