// The person's webhooks: each endpoint with its state and controls, a form to add one, and the
// new endpoint's signing secret, shown once (it lives in this component's state until "Done";
// it is never written to storage, the URL or the page's HTML).
import type { FleetEventType } from '@agent-fleet/client';
import { useState } from 'preact/hooks';
import { api } from '../../api';
import { useLoad } from '../load';
import { useSubmission } from '../submit';
import { hrefOf } from '../route';
import { SecretOnce } from '../secret-once';
import { Empty, Loading, Problem, Time, ViewHeading } from '../ui';
import { EVENT_TYPES } from './events-feed';
import { DeleteWebhook, EnabledBadge, EnabledToggle, typesText, type Webhook, type WebhookCreated } from './webhooks-parts';
import { useRights, useWorkspaces } from '../workspaces';

export { WebhookView } from './webhooks-detail';

/** The most endpoints the view lists. */
const MAX_WEBHOOKS = 200;

async function readWebhooks(): Promise<Webhook[]> {
  const webhooks: Webhook[] = [];
  for await (const webhook of api.paginate('/api/v1/webhooks', { params: { query: { limit: 100 } } })) {
    webhooks.push(webhook);
    if (webhooks.length >= MAX_WEBHOOKS) break;
  }
  return webhooks;
}

function NewWebhookForm({ workspaceId, onCreated }: { workspaceId: string | undefined; onCreated: (created: WebhookCreated) => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [every, setEvery] = useState(true);
  const [chosen, setChosen] = useState<ReadonlySet<FleetEventType>>(new Set());
  const { busy, problem, refuse, run } = useSubmission('The webhook could not be created. Please try again.');
  const choose = (type: FleetEventType, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(type);
      else next.delete(type);
      return next;
    });
  const submit = (event: Event) => {
    event.preventDefault();
    if (!every && chosen.size === 0) return refuse('Choose at least one event type, or every event.');
    return run(async () => {
      const types = every ? undefined : EVENT_TYPES.filter((type) => chosen.has(type));
      const { data, error, response } = await api.POST('/api/v1/webhooks', {
        body: { url: url.trim(), ...(workspaceId ? { workspace_id: workspaceId } : {}), ...(types ? { types } : {}), ...(description.trim() ? { description: description.trim() } : {}) },
      });
      if (!response.ok || !data) throw error;
      setUrl('');
      setDescription('');
      setEvery(true);
      setChosen(new Set());
      onCreated(data.data);
    });
  };
  return (
    <form class="inline-form webhook-form" onSubmit={(event) => void submit(event)} aria-labelledby="new-webhook-title">
      <h2 id="new-webhook-title">Add a webhook</h2>
      <div class="wide">
        <label for="webhook-url">URL</label>
        <input
          id="webhook-url"
          type="url"
          value={url}
          onInput={(event) => setUrl(event.currentTarget.value)}
          required
          maxLength={2048}
          placeholder="https://example.com/hooks/fleet"
          aria-describedby="webhook-url-hint"
        />
        <span class="hint" id="webhook-url-hint">
          Each event is POSTed here. In production the service takes https only and refuses private and local network addresses.
        </span>
      </div>
      <label class="wide">
        Description (optional)
        <input value={description} onInput={(event) => setDescription(event.currentTarget.value)} maxLength={500} />
      </label>
      <fieldset class="wide event-choice">
        <legend>Events to send</legend>
        <label class="choice">
          <input type="radio" name="webhook-events" checked={every} onChange={() => setEvery(true)} />
          Every event, including types added later
        </label>
        <label class="choice">
          <input type="radio" name="webhook-events" checked={!every} onChange={() => setEvery(false)} />
          Only the types chosen below
        </label>
        {!every && (
          <div class="type-choices">
            {EVENT_TYPES.map((type) => (
              <label class="choice">
                <input type="checkbox" checked={chosen.has(type)} onChange={(event) => choose(type, event.currentTarget.checked)} />
                {type}
              </label>
            ))}
          </div>
        )}
      </fieldset>
      <button type="submit" disabled={busy}>
        {busy ? 'Adding…' : 'Add webhook'}
      </button>
      {problem && <Problem message={problem} />}
    </form>
  );
}

/** The signing secret of the endpoint just made: shown here once, gone for good with "Done". */
function WebhookSecret({ created, onDone }: { created: { url: string; secret: string }; onDone: () => void }) {
  return (
    <SecretOnce title="Signing secret of your new webhook" label="Signing secret" secret={created.secret} onDone={onDone}>
      <p class="secret-for">
        For <span class="webhook-url">{created.url}</span>
      </p>
      <p>
        <strong>Copy it now: it will not be shown again.</strong> Your receiver checks each delivery's <code>webhook-signature</code> with it (Standard Webhooks).
      </p>
    </SecretOnce>
  );
}

function WebhookCard({ webhook, onChanged, onDeleted }: { webhook: Webhook; onChanged: (changed: Webhook) => void; onDeleted: () => void }) {
  const { administer } = useRights(webhook.workspace_id);
  return (
    <li class="webhook-card">
      <div class="webhook-head">
        <a href={hrefOf.webhook(webhook.id)} class="webhook-url">
          {webhook.url}
        </a>
        <EnabledBadge enabled={webhook.enabled} />
      </div>
      {webhook.description && <p class="webhook-description">{webhook.description}</p>}
      <p class="muted webhook-meta">
        {typesText(webhook.types)} · added <Time at={webhook.created_at} />
      </p>
      {administer && (
        <div class="webhook-actions">
          <EnabledToggle webhook={webhook} onChanged={onChanged} />
          <DeleteWebhook webhook={webhook} onDeleted={onDeleted} />
        </div>
      )}
    </li>
  );
}

export function WebhooksView() {
  const list = useLoad(readWebhooks, []);
  const { current, createIn, may } = useWorkspaces();
  const [created, setCreated] = useState<{ id: string; url: string; secret: string } | undefined>(undefined);
  const webhooks = list.data?.filter((webhook) => current === undefined || webhook.workspace_id === current.id);
  const replace = (changed: Webhook) => list.patch((current) => current.map((webhook) => (webhook.id === changed.id ? changed : webhook)));
  const remove = (id: string) => list.patch((current) => current.filter((webhook) => webhook.id !== id));
  const add = ({ secret, ...webhook }: WebhookCreated) => {
    setCreated({ id: webhook.id, url: webhook.url, secret });
    list.patch((current) => [webhook, ...current.filter((other) => other.id !== webhook.id)]);
  };
  return (
    <section class="webhooks">
      <ViewHeading>Webhooks</ViewHeading>
      <p class="muted">
        A webhook sends every event of a workspace (its agents and their tasks, its members, keys and webhooks) to a URL of yours as it happens, signed so that your receiver can
        tell it came from here. Deliveries that fail are tried again, by default for about a day. Admins and owners of a workspace manage its webhooks.
      </p>
      {created && (
        <WebhookSecret
          created={created}
          onDone={() => {
            setCreated(undefined);
            // Keyboard users go on from the webhook just made, not from the top of the page.
            document.querySelector<HTMLAnchorElement>(`.webhook-list a[href="${hrefOf.webhook(created.id)}"]`)?.focus();
          }}
        />
      )}
      {webhooks === undefined && list.loading && <Loading what="your webhooks" />}
      {list.error && <Problem message={list.error} onRetry={list.reload} />}
      {webhooks !== undefined && webhooks.length === 0 && (
        <Empty>
          <p>You have no webhooks yet. Add one below to have your fleet's events sent to your own service: task results, failures, agents coming and going.</p>
        </Empty>
      )}
      {webhooks !== undefined && webhooks.length > 0 && (
        <ul class="webhook-list">
          {webhooks.map((webhook) => (
            <WebhookCard key={webhook.id} webhook={webhook} onChanged={replace} onDeleted={() => remove(webhook.id)} />
          ))}
        </ul>
      )}
      {may(createIn, 'admin') && <NewWebhookForm workspaceId={createIn} onCreated={add} />}
    </section>
  );
}
