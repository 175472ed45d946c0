// One webhook: its settings and its delivery log. Deliveries do not come through the event
// stream, so the log is read when the view opens, when asked ("Refresh"), and every 30 s while
// the page is visible: never more often, to stay well inside the API's rate limit. A delivery
// sent again ("Send again") is read again at once, and once more when its attempt has had time.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, messageOf } from '../../api';
import { RECONCILE_MS, useLoad } from '../load';
import { hrefOf } from '../route';
import { Empty, Loading, Problem, StatusBadge, Time, ViewHeading } from '../ui';
import { DeleteWebhook, EnabledBadge, EnabledToggle, typesText, type Webhook, type WebhookDelivery } from './webhooks-parts';
import { RightsContext, useRights, useViewRights } from '../workspaces';

const DELIVERY_PAGE = 50;
/** How long after "Send again" the log is read for the attempt's outcome (a sender takes it within a second). */
const OUTCOME_READ_MS = 3000;

type Found = { found: true; webhook: Webhook } | { found: false };

async function readWebhook(webhookId: string): Promise<Found> {
  const { data, error, response } = await api.GET('/api/v1/webhooks/{webhook_id}', { params: { path: { webhook_id: webhookId } } });
  // An id that names no endpoint of this person (or is no id at all) is "not found" to them.
  if (response.status === 404 || response.status === 400) return { found: false };
  if (!response.ok || !data) throw error;
  return { found: true, webhook: data.data };
}

interface DeliveryPage {
  items: WebhookDelivery[];
  /** Where older deliveries continue, when there are more. */
  next: string | undefined;
}

async function readDeliveries(webhookId: string, cursor: string | undefined): Promise<DeliveryPage> {
  const { data, error, response } = await api.GET('/api/v1/webhooks/{webhook_id}/deliveries', {
    params: { path: { webhook_id: webhookId }, query: cursor === undefined ? { limit: DELIVERY_PAGE } : { limit: DELIVERY_PAGE, cursor } },
  });
  if (!response.ok || !data) throw error;
  return { items: data.data, next: data.meta.hasMore && data.meta.nextCursor !== null ? data.meta.nextCursor : undefined };
}

/**
 * The log after a fresh read of its newest page: that page, then the older deliveries already
 * shown (unless so many arrived that the two no longer meet: then the fresh page alone).
 */
function mergeDeliveries(shown: DeliveryPage | undefined, fresh: DeliveryPage): DeliveryPage {
  if (!shown || shown.items.length <= fresh.items.length) return fresh;
  const freshIds = new Set(fresh.items.map((delivery) => delivery.id));
  if (fresh.next !== undefined && !shown.items.some((delivery) => freshIds.has(delivery.id))) return fresh;
  const oldest = fresh.items.at(-1);
  const older = shown.items.filter((delivery) => !freshIds.has(delivery.id) && (!oldest || delivery.created_at <= oldest.created_at));
  return { items: [...fresh.items, ...older], next: older.length > 0 ? shown.next : fresh.next };
}

/** Sends the delivery again (a new attempt, due now); resolves with the delivery as the service lists it. */
async function sendAgain(delivery: WebhookDelivery): Promise<WebhookDelivery> {
  const { data, error, response } = await api.POST('/api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/attempts', {
    params: { path: { webhook_id: delivery.webhook_id, delivery_id: delivery.id } },
  });
  if (!response.ok || !data) throw error;
  return data.data;
}

/** "Send again": never disabled while it sends (focus stays on it), its outcome said beside it. */
function SendAgain({ delivery, onSent }: { delivery: WebhookDelivery; onSent: (sent: WebhookDelivery) => void }) {
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState('');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const send = async () => {
    if (busy) return;
    setBusy(true);
    setSaid('');
    setProblem(undefined);
    try {
      onSent(await sendAgain(delivery));
      setSaid('Sent again: the next attempt is due now.');
    } catch (failure) {
      setProblem(messageOf(failure, 'The delivery could not be sent again. Please try again.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        class="secondary delivery-send"
        aria-disabled={busy}
        aria-label={`Send again: ${delivery.event_type} event ${delivery.event_id}`}
        onClick={() => void send()}
      >
        {busy ? 'Sending…' : 'Send again'}
      </button>
      <span class="muted delivery-said" role="status">
        {said}
      </span>
      {problem && <Problem message={problem} />}
    </>
  );
}

function DeliveryRow({ delivery, onSent }: { delivery: WebhookDelivery; onSent: (sent: WebhookDelivery) => void }) {
  const { administer } = useViewRights();
  const [open, setOpen] = useState(false);
  const logId = `delivery-${delivery.id}-attempts`;
  const answer =
    delivery.last_status_code !== null ? `last answer ${delivery.last_status_code}` : delivery.attempts > 0 ? 'no answer' : 'not tried yet';
  return (
    <li class="delivery">
      <div class="delivery-line">
        <StatusBadge status={delivery.status} />
        <span class="delivery-type">{delivery.event_type}</span>
        <span class="muted">event {delivery.event_id}</span>
        <span>
          {delivery.attempts} {delivery.attempts === 1 ? 'attempt' : 'attempts'}, {answer}
        </span>
        <Time at={delivery.created_at} />
        <div class="delivery-actions">
          {delivery.attempt_log.length > 0 && (
            <button type="button" class="secondary delivery-toggle" aria-expanded={open} aria-controls={logId} onClick={() => setOpen(!open)}>
              Attempt log ({delivery.attempt_log.length})
            </button>
          )}
          {administer && <SendAgain delivery={delivery} onSent={onSent} />}
        </div>
      </div>
      {delivery.last_error && <p class="delivery-error">Last error: {delivery.last_error}</p>}
      {delivery.next_attempt_at && (
        <p class="delivery-next">
          Next attempt <Time at={delivery.next_attempt_at} />
        </p>
      )}
      {open && (
        <ol class="attempts" id={logId}>
          {delivery.attempt_log.map((attempt) => (
            <li>
              <Time at={attempt.attempted_at} />: {attempt.status_code === null ? 'no answer' : `answered ${attempt.status_code}`}, in {attempt.duration_ms} ms
              {attempt.error && <span class="attempt-error"> — {attempt.error}</span>}
            </li>
          ))}
        </ol>
      )}
    </li>
  );
}

function Deliveries({ webhookId }: { webhookId: string }) {
  const [log, setLog] = useState<DeliveryPage | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [readAt, setReadAt] = useState<string | undefined>(undefined);
  const [olderBusy, setOlderBusy] = useState(false);
  const mounted = useRef(true);
  const inFlight = useRef(false);
  const outcomeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const refresh = useCallback(async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    try {
      const fresh = await readDeliveries(webhookId, undefined);
      if (!mounted.current) return;
      setLog((shown) => mergeDeliveries(shown, fresh));
      setReadAt(new Date().toISOString());
      setProblem(undefined);
    } catch (failure) {
      if (mounted.current) setProblem(messageOf(failure, 'The delivery log could not be read. Please try again.'));
    } finally {
      inFlight.current = false;
      if (mounted.current) setBusy(false);
    }
  }, [webhookId]);

  useEffect(() => {
    mounted.current = true;
    void refresh();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void refresh();
    }, RECONCILE_MS);
    return () => {
      mounted.current = false;
      clearInterval(timer);
      clearTimeout(outcomeTimer.current);
    };
  }, [refresh]);

  /** A delivery sent again: shown as answered at once, then the log read now and when its attempt has had time. */
  const sent = (delivery: WebhookDelivery) => {
    setLog((shown) => shown && { ...shown, items: shown.items.map((item) => (item.id === delivery.id ? delivery : item)) });
    void refresh();
    clearTimeout(outcomeTimer.current);
    outcomeTimer.current = setTimeout(() => void refresh(), OUTCOME_READ_MS);
  };

  const readOlder = async (cursor: string) => {
    setOlderBusy(true);
    try {
      const older = await readDeliveries(webhookId, cursor);
      if (!mounted.current) return;
      setLog((shown) => ({ items: [...(shown?.items ?? []), ...older.items.filter((delivery) => !shown?.items.some((other) => other.id === delivery.id))], next: older.next }));
    } catch (failure) {
      if (mounted.current) setProblem(messageOf(failure, 'Older deliveries could not be read. Please try again.'));
    } finally {
      if (mounted.current) setOlderBusy(false);
    }
  };

  return (
    <section class="deliveries-section" aria-labelledby="deliveries-title">
      <div class="section-head">
        <h2 id="deliveries-title">Deliveries</h2>
        <button type="button" class="secondary" disabled={busy} onClick={() => void refresh()}>
          {busy ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      <p class="muted" role="status">
        Newest first. The log is read again every 30 seconds while this page is visible
        {readAt && (
          <>
            ; last read at <Time at={readAt} />
          </>
        )}
        .
      </p>
      {problem && <Problem message={problem} onRetry={() => void refresh()} />}
      {log === undefined && !problem && <Loading what="the deliveries" />}
      {log !== undefined && log.items.length === 0 && (
        <Empty>
          <p>No deliveries yet. Each event sent to this webhook from now on is listed here, with every attempt and its answer.</p>
        </Empty>
      )}
      {log !== undefined && log.items.length > 0 && (
        <ol class="deliveries">
          {log.items.map((delivery) => (
            <DeliveryRow key={delivery.id} delivery={delivery} onSent={sent} />
          ))}
        </ol>
      )}
      {log?.next !== undefined && (
        <button type="button" class="secondary" disabled={olderBusy} onClick={() => log.next !== undefined && void readOlder(log.next)}>
          {olderBusy ? 'Reading…' : 'Older deliveries'}
        </button>
      )}
    </section>
  );
}

function Settings({ webhook, onChanged }: { webhook: Webhook; onChanged: (changed: Webhook) => void }) {
  const { administer } = useViewRights();
  return (
    <section class="webhook-settings" aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <dl class="facts">
        <dt>URL</dt>
        <dd class="webhook-url">{webhook.url}</dd>
        <dt>Description</dt>
        <dd>{webhook.description ?? <span class="muted">none</span>}</dd>
        <dt>Events</dt>
        <dd>{typesText(webhook.types)}</dd>
        <dt>State</dt>
        <dd>
          <EnabledBadge enabled={webhook.enabled} />
          {!webhook.enabled && <span class="muted"> Nothing is sent while it is disabled; events of that time are not sent later.</span>}
        </dd>
        <dt>Added</dt>
        <dd>
          <Time at={webhook.created_at} />
        </dd>
        <dt>Changed</dt>
        <dd>
          <Time at={webhook.updated_at} />
        </dd>
      </dl>
      {administer && (
        <div class="webhook-actions">
          <EnabledToggle webhook={webhook} onChanged={onChanged} />
          <DeleteWebhook webhook={webhook} onDeleted={() => (window.location.hash = hrefOf.webhooks())} />
        </div>
      )}
    </section>
  );
}

export function WebhookView({ webhookId }: { webhookId: string }) {
  const loaded = useLoad(() => readWebhook(webhookId), [webhookId]);
  const found = loaded.data;
  const rights = useRights(found?.found ? found.webhook.workspace_id : undefined);
  if (found === undefined) {
    return (
      <section class="webhook">
        <ViewHeading>Webhook</ViewHeading>
        {loaded.error ? <Problem message={loaded.error} onRetry={loaded.reload} /> : <Loading what="the webhook" />}
        <p>
          <a href={hrefOf.webhooks()}>All webhooks</a>
        </p>
      </section>
    );
  }
  if (!found.found) {
    return (
      <section class="webhook">
        <ViewHeading>No such webhook</ViewHeading>
        <Empty>
          <p>
            You have no webhook <code class="webhook-url">{webhookId}</code>: it may have been deleted. <a href={hrefOf.webhooks()}>See your webhooks</a>.
          </p>
        </Empty>
      </section>
    );
  }
  const { webhook } = found;
  return (
    <section class="webhook">
      <p class="back">
        <a href={hrefOf.webhooks()}>← All webhooks</a>
      </p>
      <ViewHeading>
        Webhook <span class="webhook-url">{webhook.url}</span>
      </ViewHeading>
      <RightsContext.Provider value={rights}>
        <Settings webhook={webhook} onChanged={(changed) => loaded.patch(() => ({ found: true, webhook: changed }))} />
        <Deliveries webhookId={webhook.id} />
      </RightsContext.Provider>
    </section>
  );
}
