// How the agent is doing: its queue and throughput over the last hour or day (figures and charts),
// how long tasks wait and run, who works its tasks now (each lease with its task, expiry, heartbeat
// and progress), and the tokens and money its workers reported. Heartbeats and a queue's depth
// change without an event, so these read again every REFRESH_MS while the tab is visible (a hidden
// tab reads once when shown); usage, which moves slower, every USAGE_REFRESH_MS.
import type { components } from '@agent-fleet/client';
import { AgentFleetError, unwrap } from '@agent-fleet/client';
import { useState } from 'preact/hooks';
import { api } from '../../../api';
import { useEvery, useLoad } from '../../load';
import { hrefOf } from '../../route';
import { Ago, clockText, costText, countText, durationText, Empty, Loading, Problem, ProgressBar, useNow } from '../../ui';
import { BarChart, FiguresTable, LineChart, scaleTop } from './charts';

type Stats = components['schemas']['AgentStats'];
type StatsBucket = components['schemas']['StatsBucket'];
type Worker = components['schemas']['Worker'];
type Usage = components['schemas']['AgentUsage'];
type Window = Stats['window'];
type Granularity = Usage['granularity'];

export const REFRESH_MS = 10_000;
const USAGE_REFRESH_MS = 60_000;
/** The most workers listed (the API pages them, most recently seen first). */
const MAX_WORKERS = 100;

const WINDOW_WORDS: Record<Window, string> = { '1h': 'last hour', '24h': 'last day' };

async function readStats(agentId: string, window: Window): Promise<Stats> {
  return (await unwrap(api.GET('/api/v1/agents/{agent_id}/stats', { params: { path: { agent_id: agentId }, query: { window } } }))).data;
}

async function readWorkers(agentId: string): Promise<Worker[]> {
  const { data, error, response } = await api.GET('/api/v1/agents/{agent_id}/workers', { params: { path: { agent_id: agentId }, query: { limit: MAX_WORKERS } } });
  if (!response.ok || !data) throw new AgentFleetError(response, error);
  return data.data;
}

async function readUsage(agentId: string, granularity: Granularity): Promise<Usage> {
  return (await unwrap(api.GET('/api/v1/agents/{agent_id}/usage', { params: { path: { agent_id: agentId }, query: { granularity } } }))).data;
}

/** Two or more choices as radio buttons in a row: a window, a bucket size. One name makes them one group: arrow keys move between them. */
function Choice<T extends string>({ legend, value, choices, onChange }: { legend: string; value: T; choices: ReadonlyArray<[T, string]>; onChange: (value: T) => void }) {
  return (
    <fieldset class="choice">
      <legend>{legend}</legend>
      {choices.map(([choice, words]) => (
        <label class="check" key={choice}>
          <input type="radio" name={`choice-${legend.toLowerCase()}`} value={choice} checked={value === choice} onChange={() => onChange(choice)} />
          {words}
        </label>
      ))}
    </fieldset>
  );
}

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div class="figure">
      <dt>{label}</dt>
      <dd>
        <span class="figure-value">{value}</span>
        {hint && <span class="figure-hint">{hint}</span>}
      </dd>
    </div>
  );
}

/** Where a bucket's figures are highest, as words: "40 at 14:05". */
function peakOf(series: readonly StatsBucket[], value: (bucket: StatsBucket) => number): { value: number; at: string | undefined } {
  let best: StatsBucket | undefined;
  for (const bucket of series) if (best === undefined || value(bucket) > value(best)) best = bucket;
  return { value: best ? value(best) : 0, at: best?.start };
}

function QueueCharts({ stats }: { stats: Stats }) {
  // The service gives its window in buckets; an older one gives none, and the figures above stand alone.
  const series: StatsBucket[] = Array.isArray(stats.series) ? stats.series : [];
  const window = WINDOW_WORDS[stats.window];
  if (series.length === 0) return <p class="muted">No chart: the service gave no buckets for the {window}.</p>;
  const first = clockText(series[0]?.start ?? stats.at);
  const last = 'now';
  const depth = series.map((bucket) => bucket.queue_depth);
  const depthPeak = peakOf(series, (bucket) => bucket.queue_depth);
  const finishedPeak = peakOf(series, (bucket) => bucket.succeeded + bucket.failed);
  const succeeded = series.reduce((sum, bucket) => sum + bucket.succeeded, 0);
  const failed = series.reduce((sum, bucket) => sum + bucket.failed, 0);
  const created = series.reduce((sum, bucket) => sum + bucket.created, 0);
  const bucketWords = stats.window === '1h' ? 'minute' : '15 minutes';
  const depthLabel =
    `Queue depth over the ${window}: ${depth.at(-1) ?? 0} queued at the end, ` +
    (depthPeak.value > 0 && depthPeak.at ? `highest ${depthPeak.value} at ${clockText(depthPeak.at)}, ` : '') +
    `lowest ${Math.min(...depth)}.`;
  const finishedLabel =
    `Tasks finished per ${bucketWords} over the ${window}: ${succeeded} succeeded and ${failed} failed in all, ${created} created` +
    (finishedPeak.value > 0 && finishedPeak.at ? `; busiest ${finishedPeak.value} at ${clockText(finishedPeak.at)}.` : '.');
  return (
    <>
      <div class="charts">
        <LineChart title={`Queue depth, ${window}`} values={depth} top={scaleTop(depthPeak.value)} first={first} last={last} label={depthLabel} />
        <BarChart
          title={`Finished per ${bucketWords}, ${window}`}
          parts={[
            { class: 'chart-ok', name: 'succeeded', values: series.map((bucket) => bucket.succeeded) },
            { class: 'chart-bad', name: 'failed', values: series.map((bucket) => bucket.failed) },
          ]}
          top={scaleTop(finishedPeak.value)}
          first={first}
          last={last}
          label={finishedLabel}
        />
      </div>
      <FiguresTable
        caption={`The ${window} by ${bucketWords}`}
        columns={['From', 'Queued at its end', 'Created', 'Succeeded', 'Failed']}
        rows={series.map((bucket) => [clockText(bucket.start), bucket.queue_depth, bucket.created, bucket.succeeded, bucket.failed])}
      />
    </>
  );
}

export function OverviewSection({ agentId }: { agentId: string }) {
  const [window, setWindow] = useState<Window>('1h');
  const stats = useLoad(() => readStats(agentId, window), [agentId, window], { keep: true });
  useEvery(REFRESH_MS, stats.reload);
  const shown = stats.data;
  return (
    <section class="agent-overview" aria-labelledby="overview-title">
      <div class="section-head">
        <h2 id="overview-title">Overview</h2>
        <Choice
          legend="Window"
          value={window}
          choices={[
            ['1h', 'Last hour'],
            ['24h', 'Last day'],
          ]}
          onChange={setWindow}
        />
      </div>
      {shown === undefined && stats.loading && <Loading what="the agent’s figures" />}
      {stats.error && <Problem message={stats.error} onRetry={stats.reload} />}
      {shown && (
        <>
          <dl class="figures" aria-label={`Figures of the ${WINDOW_WORDS[shown.window]}`}>
            <Figure label="Queued" value={countText(shown.queue_depth)} hint={shown.scheduled > 0 ? `+${countText(shown.scheduled)} scheduled or backing off` : 'claimable now'} />
            <Figure label="Running" value={countText(shown.tasks.running)} />
            <Figure label="Succeeded" value={countText(shown.succeeded)} hint={WINDOW_WORDS[shown.window]} />
            <Figure label="Failed" value={countText(shown.failed)} hint={WINDOW_WORDS[shown.window]} />
            <Figure label="Throughput" value={`${shown.throughput_per_minute.toFixed(shown.throughput_per_minute < 10 ? 1 : 0)}/min`} hint="finished" />
            <Figure label="Wait" value={durationText(shown.wait_seconds.p50)} hint={`p50 · p95 ${durationText(shown.wait_seconds.p95)}`} />
            <Figure label="Run time" value={durationText(shown.run_seconds.p50)} hint={`p50 · p95 ${durationText(shown.run_seconds.p95)}`} />
          </dl>
          <QueueCharts stats={shown} />
        </>
      )}
    </section>
  );
}

function WorkerItem({ worker, agentId, now }: { worker: Worker; agentId: string; now: number }) {
  const kind = worker.kind === 'agent_key' ? 'agent key' : worker.kind === 'service_key' ? 'service key' : 'person';
  const name = worker.name ?? `${kind} ${worker.credential_id}`;
  return (
    <li class="worker">
      <div class="worker-head">
        <h3 class="worker-name">{name}</h3>
        <span class="muted">{kind}</span>
      </div>
      <p class="worker-facts">
        Seen <Ago at={worker.last_seen_at} now={now} /> · {worker.succeeded_last_hour} succeeded, {worker.failed_last_hour} failed in the last hour
      </p>
      {worker.active_leases.length === 0 ? (
        <p class="muted">Holds no task now.</p>
      ) : (
        <ul class="leases" aria-label={`Tasks ${name} holds`}>
          {worker.active_leases.map((lease) => (
            <li class="lease">
              <a href={hrefOf.task(agentId, lease.task_id)}>{lease.task_title}</a>
              <span class="lease-facts">
                expires <Ago at={lease.expires_at} now={now} /> · heartbeat {lease.last_heartbeat_at ? <Ago at={lease.last_heartbeat_at} now={now} /> : 'none yet'}
              </span>
              {lease.progress && <ProgressBar progress={lease.progress} label={`Progress of ${lease.task_title}`} />}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

export function WorkersSection({ agentId }: { agentId: string }) {
  const workers = useLoad(() => readWorkers(agentId), [agentId]);
  useEvery(REFRESH_MS, workers.reload);
  const now = useNow(5000);
  const shown = workers.data;
  return (
    <section class="agent-workers" aria-labelledby="workers-title">
      <h2 id="workers-title">Workers</h2>
      {shown === undefined && workers.loading && <Loading what="the workers" />}
      {workers.error && <Problem message={workers.error} onRetry={workers.reload} />}
      {shown && shown.length === 0 && (
        <Empty>
          <p>No worker has claimed a task of this agent in the last 10 minutes.</p>
        </Empty>
      )}
      {shown && shown.length > 0 && (
        <ul class="workers">
          {shown.map((worker) => (
            <WorkerItem key={`${worker.kind}:${worker.credential_id}`} worker={worker} agentId={agentId} now={now} />
          ))}
        </ul>
      )}
    </section>
  );
}

export function UsageSection({ agentId: agent }: { agentId: string }) {
  const [granularity, setGranularity] = useState<Granularity>('hour');
  const usage = useLoad(() => readUsage(agent, granularity), [agent, granularity], { keep: true });
  useEvery(USAGE_REFRESH_MS, usage.reload);
  const shown = usage.data;
  const label = (start: string) => (shown?.granularity === 'day' ? new Date(start).toLocaleDateString(undefined, { month: 'short', day: 'numeric' }) : clockText(start));
  const used = shown ? shown.buckets.filter((bucket) => bucket.input_tokens + bucket.output_tokens > 0 || bucket.cost_usd > 0).reverse() : [];
  const tokensTop = shown ? scaleTop(Math.max(0, ...shown.buckets.map((bucket) => bucket.input_tokens + bucket.output_tokens))) : 1;
  const span = shown?.granularity === 'day' ? 'day' : 'hour';
  return (
    <section class="agent-usage" aria-labelledby="usage-title">
      <div class="section-head">
        <h2 id="usage-title">Usage</h2>
        <Choice
          legend="Per"
          value={granularity}
          choices={[
            ['hour', 'Hour (last 24)'],
            ['day', 'Day (last 30)'],
          ]}
          onChange={setGranularity}
        />
      </div>
      {shown === undefined && usage.loading && <Loading what="the usage" />}
      {usage.error && <Problem message={usage.error} onRetry={usage.reload} />}
      {shown && (
        <>
          <dl class="figures">
            <Figure label="Input tokens" value={countText(shown.totals.input_tokens)} />
            <Figure label="Output tokens" value={countText(shown.totals.output_tokens)} />
            <Figure label="Cost" value={costText(shown.totals.cost_usd)} />
          </dl>
          <BarChart
            title={`Tokens per ${span}`}
            parts={[
              { class: 'chart-in', name: 'input', values: shown.buckets.map((bucket) => bucket.input_tokens) },
              { class: 'chart-out', name: 'output', values: shown.buckets.map((bucket) => bucket.output_tokens) },
            ]}
            top={tokensTop}
            first={shown.buckets[0] ? label(shown.buckets[0].start) : ''}
            last="now"
            label={`Tokens per ${span} from ${label(shown.from)}: ${countText(shown.totals.input_tokens)} input and ${countText(shown.totals.output_tokens)} output in all, costing ${costText(shown.totals.cost_usd)}; ${used.length} of ${shown.buckets.length} ${span}s used any.`}
          />
          {used.length === 0 ? (
            <p class="muted">No usage reported in this range.</p>
          ) : (
            <table class="usage-table">
              <caption class="visually-hidden">Usage per {span}, newest first, {span}s without usage left out</caption>
              <thead>
                <tr>
                  <th scope="col">{span === 'day' ? 'Day' : 'Hour'}</th>
                  <th scope="col">Input</th>
                  <th scope="col">Output</th>
                  <th scope="col">Cost</th>
                  <th scope="col" class="col-models">
                    Models
                  </th>
                </tr>
              </thead>
              <tbody>
                {used.map((bucket) => (
                  <tr>
                    <th scope="row">{label(bucket.start)}</th>
                    <td>{countText(bucket.input_tokens)}</td>
                    <td>{countText(bucket.output_tokens)}</td>
                    <td>{costText(bucket.cost_usd)}</td>
                    <td class="col-models">{bucket.models.map((model) => model.model ?? 'unnamed').join(', ') || '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
