import type { Knex } from 'knex';
import type { Executor } from './compiled-query';
import type { UsageDelta } from './records';
import { toIsoTimestamp } from './row-mapper';

/** One hour of one model's usage by an agent (`model` '' when none was named). */
export interface UsageRow {
  hour: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  cost_micro_usd: number;
}

export interface UsageRepository {
  /** Adds usage to the agent's hour (an ISO timestamp on the hour). */
  add(agentId: string, hour: string, usage: UsageDelta): Promise<void>;
  /** The agent's hours from `from` (inclusive) to `to` (exclusive), oldest first. */
  hoursOf(agentId: string, from: string, to: string): Promise<UsageRow[]>;
}

/** The columns of a row's usage sums, each grown by the delta (the model named last is kept). */
export function usageColumns(db: Executor, usage: UsageDelta, withModel = true): Record<string, Knex.Raw | string> {
  return {
    input_tokens: db.raw('input_tokens + ?', [usage.input_tokens]),
    output_tokens: db.raw('output_tokens + ?', [usage.output_tokens]),
    cost_micro_usd: db.raw('cost_micro_usd + ?', [usage.cost_micro_usd]),
    ...(withModel && usage.model !== null ? { model: usage.model } : {}),
  };
}

export function createUsageRepository(db: Executor): UsageRepository {
  return {
    async add(agentId, hour, usage) {
      await db('agent_usage')
        .insert({ agent_id: agentId, hour, model: usage.model ?? '', input_tokens: usage.input_tokens, output_tokens: usage.output_tokens, cost_micro_usd: usage.cost_micro_usd })
        .onConflict(['agent_id', 'hour', 'model'])
        .merge({
          input_tokens: db.raw('agent_usage.input_tokens + excluded.input_tokens'),
          output_tokens: db.raw('agent_usage.output_tokens + excluded.output_tokens'),
          cost_micro_usd: db.raw('agent_usage.cost_micro_usd + excluded.cost_micro_usd'),
        });
    },
    async hoursOf(agentId, from, to) {
      const rows: Array<Record<string, unknown>> = await db('agent_usage')
        .select('hour', 'model', 'input_tokens', 'output_tokens', 'cost_micro_usd')
        .where({ agent_id: agentId })
        .andWhere('hour', '>=', from)
        .andWhere('hour', '<', to)
        .orderBy('hour');
      return rows.map((row) => ({
        hour: toIsoTimestamp(row.hour),
        model: String(row.model),
        input_tokens: Number(row.input_tokens),
        output_tokens: Number(row.output_tokens),
        cost_micro_usd: Number(row.cost_micro_usd),
      }));
    },
  };
}
