// The agent's keys: what each may do and whether it still works, a form to make one, and the new
// key's secret, shown once. The secret lives only in this component's state: never in storage, the
// URL or the keys list, and it is gone once the person says "Done" or leaves the view.
import type { components } from '@agent-fleet/client';
import { useRef, useState } from 'preact/hooks';
import { api, messageOf } from '../../../api';
import { useLoad } from '../../load';
import { Empty, Loading, Problem, StatusBadge, Time } from '../../ui';
import { ConfirmAction } from '../../confirm-action';
import { SecretOnce } from '../../secret-once';
import { useSubmission } from '../../submit';
import { useViewRights } from '../../workspaces';

type AgentKey = components['schemas']['AgentKey'];
type AgentKeyScope = components['schemas']['AgentKeyScope'];
type NewSecret = { id: string; name: string; secret: string };

const SCOPES: readonly { scope: AgentKeyScope; says: string }[] = [
  { scope: 'tasks:read', says: 'read the agent, its tasks and its leases' },
  { scope: 'tasks:write', says: 'queue tasks on the agent' },
  { scope: 'tasks:work', says: 'claim tasks and report their outcome (what a worker needs)' },
];
/** The most keys the view lists. */
const MAX_KEYS = 500;

async function readKeys(agentId: string): Promise<AgentKey[]> {
  const keys: AgentKey[] = [];
  for await (const key of api.paginate('/api/v1/agents/{agent_id}/keys', { params: { path: { agent_id: agentId }, query: { limit: 100 } } })) {
    keys.push(key as AgentKey);
    if (keys.length >= MAX_KEYS) break;
  }
  return keys;
}

function stateOf(key: AgentKey): 'revoked' | 'expired' | 'active' {
  if (key.revoked_at) return 'revoked';
  if (key.expires_at && new Date(key.expires_at).getTime() <= Date.now()) return 'expired';
  return 'active';
}

async function revokeKey(key: AgentKey, onChanged: (key: AgentKey) => void): Promise<string | undefined> {
  const path = { agent_id: key.agent_id, key_id: key.id };
  try {
    const { error, response } = await api.DELETE('/api/v1/agents/{agent_id}/keys/{key_id}', { params: { path } });
    if (response.status !== 204) return messageOf(error, 'The key could not be revoked. Please try again.');
  } catch (failure) {
    return messageOf(failure, 'The key could not be revoked. Please try again.');
  }
  // The service's revoked_at when it can be read; the time here otherwise: the key is revoked either way.
  const read = await api.GET('/api/v1/agents/{agent_id}/keys/{key_id}', { params: { path } }).catch(() => undefined);
  onChanged(read?.data ? read.data.data : { ...key, revoked_at: new Date().toISOString() });
  return undefined;
}

function KeyItem({ agentKey, onChanged }: { agentKey: AgentKey; onChanged: (key: AgentKey) => void }) {
  const state = stateOf(agentKey);
  const { operate } = useViewRights();
  return (
    <li class={`agent-key key-${state}`}>
      <div class="task-head">
        <h3 class="key-name">{agentKey.name}</h3>
        <StatusBadge status={state} />
      </div>
      <dl class="task-facts">
        <div>
          <dt>Prefix</dt>
          <dd>
            <code>{agentKey.prefix}…</code>
          </dd>
        </div>
        <div>
          <dt>Scopes</dt>
          <dd>{agentKey.scopes.join(', ')}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>
            <Time at={agentKey.created_at} />
          </dd>
        </div>
        <div>
          <dt>Expires</dt>
          <dd>{agentKey.expires_at ? <Time at={agentKey.expires_at} /> : 'never'}</dd>
        </div>
        <div>
          <dt>Last used</dt>
          <dd>{agentKey.last_used_at ? <Time at={agentKey.last_used_at} /> : 'never'}</dd>
        </div>
        {agentKey.revoked_at && (
          <div>
            <dt>Revoked</dt>
            <dd>
              <Time at={agentKey.revoked_at} />
            </dd>
          </div>
        )}
      </dl>
      {state !== 'revoked' && operate && (
        <div class="task-actions">
          <ConfirmAction label="Revoke" confirmLabel="Confirm revoke" subject={`key ${agentKey.name}`} onConfirm={() => revokeKey(agentKey, onChanged)} />
        </div>
      )}
    </li>
  );
}

function SecretBox({ created, onDone }: { created: NewSecret; onDone: () => void }) {
  return (
    <SecretOnce title={`Copy the secret of “${created.name}” now`} label="Secret" secret={created.secret} onDone={onDone} level={3}>
      <p>
        <strong>It will not be shown again:</strong> the service keeps only a digest of it. Give it to the agent’s worker as its <code>X-API-Key</code> header, or
        exchange it at <code>POST /token</code> (client credentials, with the key id as <code>client_id</code>).
      </p>
      <p class="muted">
        Key id: <code>{created.id}</code>
      </p>
    </SecretOnce>
  );
}

function NewKeyForm({ agentId, onCreated }: { agentId: string; onCreated: (key: AgentKey, secret: NewSecret) => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<AgentKeyScope[]>(SCOPES.map(({ scope }) => scope));
  const [days, setDays] = useState('');
  const { busy, problem, refuse, run } = useSubmission('The key could not be created. Please try again.');
  const toggle = (scope: AgentKeyScope, on: boolean) => setScopes((current) => SCOPES.map((entry) => entry.scope).filter((each) => (each === scope ? on : current.includes(each))));

  const submit = (event: Event) => {
    event.preventDefault();
    if (scopes.length === 0) return refuse('Choose at least one scope: a key without one could do nothing.');
    return run(async () => {
      const { data, error, response } = await api.POST('/api/v1/agents/{agent_id}/keys', {
        params: { path: { agent_id: agentId } },
        body: { name, scopes, ...(days.trim() ? { expires_in_days: Number(days) } : {}) },
      });
      if (!response.ok || !data) throw error;
      const { secret, ...key } = data.data;
      setName('');
      setDays('');
      setScopes(SCOPES.map(({ scope }) => scope));
      onCreated(key, { id: key.id, name: key.name, secret });
    });
  };

  return (
    <form class="inline-form" onSubmit={(event) => void submit(event)} aria-labelledby="new-key-title">
      <h2 id="new-key-title">Create a key</h2>
      <label>
        Name
        <input value={name} onInput={(event) => setName(event.currentTarget.value)} required maxLength={100} placeholder="e.g. worker on build-01" />
      </label>
      <label>
        Expires in days <span class="muted">(1–365; empty: never)</span>
        <input type="number" min={1} max={365} step={1} value={days} onInput={(event) => setDays(event.currentTarget.value)} />
      </label>
      <fieldset class="wide scopes">
        <legend>Scopes</legend>
        {SCOPES.map(({ scope, says }) => (
          <label class="check">
            <input type="checkbox" checked={scopes.includes(scope)} onChange={(event) => toggle(scope, event.currentTarget.checked)} />
            <span>
              <code>{scope}</code> <span class="muted">{says}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={busy}>
        Create key
      </button>
      {problem && <Problem message={problem} />}
    </form>
  );
}

export function KeysSection({ agentId }: { agentId: string }) {
  const keys = useLoad(() => readKeys(agentId), [agentId]);
  const [created, setCreated] = useState<NewSecret | undefined>(undefined);
  const heading = useRef<HTMLHeadingElement>(null);
  const done = () => {
    setCreated(undefined);
    heading.current?.focus();
  };
  const replace = (changed: AgentKey) => keys.patch((all) => all.map((key) => (key.id === changed.id ? changed : key)));
  const list = keys.data;
  const rights = useViewRights();
  return (
    <section class="agent-keys" aria-labelledby="keys-title">
      <h2 id="keys-title" tabIndex={-1} ref={heading}>
        Keys
      </h2>
      {created && <SecretBox created={created} onDone={done} />}
      {list === undefined && keys.loading && <Loading what="the keys" />}
      {keys.error && <Problem message={keys.error} onRetry={keys.reload} />}
      {list !== undefined && list.length === 0 && (
        <Empty>
          <p>
            No keys yet. A key lets this agent’s own worker sign in as this agent and nothing else: it reads and works this agent’s tasks within its scopes, and you
            can revoke it at any time. Create one below and give its secret to the worker.
          </p>
        </Empty>
      )}
      {list !== undefined && list.length > 0 && (
        <ul class="keys" aria-label="Keys, newest first">
          {list.map((key) => (
            <KeyItem key={key.id} agentKey={key} onChanged={replace} />
          ))}
        </ul>
      )}
      {rights.operate && (
        <NewKeyForm
          agentId={agentId}
          onCreated={(key, secret) => {
            keys.patch((all) => (all.some((each) => each.id === key.id) ? all : [key, ...all]));
            setCreated(secret);
          }}
        />
      )}
    </section>
  );
}
