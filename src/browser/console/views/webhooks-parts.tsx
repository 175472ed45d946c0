// What the webhook list and a webhook's own page share: how its event types read, and the
// controls that change it (enable or disable, delete after a second click).
import type { components } from '@agent-fleet/client';
import { useState } from 'preact/hooks';
import { api, messageOf } from '../../api';
import { ConfirmAction } from '../confirm-action';
import { Problem, StatusBadge } from '../ui';

export type Webhook = components['schemas']['Webhook'];
export type WebhookCreated = components['schemas']['WebhookCreated'];
export type WebhookDelivery = components['schemas']['WebhookDelivery'];

export function typesText(types: Webhook['types']): string {
  return types === null || types === undefined ? 'Every event' : types.join(', ');
}

export function EnabledBadge({ enabled }: { enabled: boolean }) {
  return <StatusBadge status={enabled ? 'enabled' : 'disabled'} />;
}

/** Turns the endpoint on or off (PATCH `enabled`), and hands back the endpoint as changed. */
export function EnabledToggle({ webhook, onChanged }: { webhook: Webhook; onChanged: (changed: Webhook) => void }) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const toggle = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      const { data, error, response } = await api.PATCH('/api/v1/webhooks/{webhook_id}', { params: { path: { webhook_id: webhook.id } }, body: { enabled: !webhook.enabled } });
      if (!response.ok || !data) throw error;
      onChanged(data.data);
    } catch (failure) {
      setProblem(messageOf(failure, 'The webhook could not be changed. Please try again.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" class="secondary" disabled={busy} onClick={() => void toggle()}>
        {webhook.enabled ? 'Disable' : 'Enable'}
      </button>
      {problem && <Problem message={problem} />}
    </>
  );
}

/** Deletes the endpoint on a second, explicit click. */
export function DeleteWebhook({ webhook, onDeleted }: { webhook: Webhook; onDeleted: () => void }) {
  const remove = async (): Promise<string | undefined> => {
    try {
      const { error, response } = await api.DELETE('/api/v1/webhooks/{webhook_id}', { params: { path: { webhook_id: webhook.id } } });
      // Already gone (deleted elsewhere) is what was asked for.
      if (!response.ok && response.status !== 404) throw error;
      onDeleted();
      return undefined;
    } catch (failure) {
      return messageOf(failure, 'The webhook could not be deleted. Please try again.');
    }
  };
  return (
    <ConfirmAction
      label="Delete"
      confirmLabel="Confirm delete"
      subject={`webhook ${webhook.url}`}
      warning="Delete this webhook and its delivery log? Nothing more will be sent to it."
      onConfirm={remove}
    />
  );
}
