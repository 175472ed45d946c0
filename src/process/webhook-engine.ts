import type { Store } from '../data/store';
import { claimDelivery, FANOUT_BATCH, fanOutEvents, recordAttempt, type ClaimedDelivery } from '../domain/webhook-deliveries';
import { secretContext, type SecretSealer, type WebhookSettings } from '../domain/webhooks';
import type { Logger } from '../logger';
import type { WebhookSender } from './webhook-sender';

export interface WebhookEngine {
  /** Runs one fan-out and fills the free sending slots now, rather than at the next tick (tests). */
  poke(): Promise<void>;
  /** Nothing new starts from now on; resolves once the attempts under way have ended (each is bounded by the timeout). */
  stop(): Promise<void>;
}

export interface EngineDependencies {
  store: Store;
  sealer: SecretSealer;
  sender: WebhookSender;
  settings: Pick<WebhookSettings, 'pollMs' | 'concurrency' | 'timeoutMs' | 'retryScheduleMs'>;
  logger: Logger;
  /** Told what became of the delivery after each attempt this process records (the metrics). */
  onAttempt?: (status: 'succeeded' | 'pending' | 'failed') => void;
}

/**
 * Delivers webhooks from this process, every `pollMs`: turns new events into deliveries, then
 * claims due deliveries, up to `concurrency` attempts at once. Every serving process runs one;
 * the claims keep one attempt per delivery across them all. A process that dies mid-attempt
 * leaves its claim to expire, and another process makes the attempt again: at least once.
 */
export function startWebhookEngine({ store, sealer, sender, settings, logger, onAttempt }: EngineDependencies): WebhookEngine {
  let stopped = false;
  const inFlight = new Set<Promise<void>>();

  const fanOut = single(async () => {
    try {
      while (!stopped && (await fanOutEvents(store)) === FANOUT_BATCH) {
        // A backlog: the next step at once.
      }
    } catch (error) {
      logger.warn({ err: messageOf(error) }, 'webhook fan-out failed');
    }
  });

  const attempt = async (claim: ClaimedDelivery) => {
    let secret: string;
    try {
      secret = sealer.open(claim.secret_sealed, secretContext(claim.webhook_id));
    } catch {
      const at = Date.now();
      const status = await recordAttempt(
        store,
        claim,
        { startedAt: at, durationMs: 0, statusCode: null, error: 'not sent: the signing secret cannot be opened with this instance\'s TOKEN_ENCRYPTION_KEY' },
        settings.retryScheduleMs,
      );
      if (status) onAttempt?.(status);
      return;
    }
    const result = await sender.send({ url: claim.url, eventId: String(claim.event_id), body: claim.payload, secret });
    const kept = await recordAttempt(store, claim, result, settings.retryScheduleMs);
    if (!kept) logger.info({ delivery: claim.id }, 'webhook attempt not recorded: the delivery was deleted or taken over meanwhile');
    else onAttempt?.(kept);
  };

  const fill: () => Promise<void> = single(async () => {
    try {
      while (!stopped && inFlight.size < settings.concurrency) {
        const claim = await claimDelivery(store, settings.timeoutMs);
        if (!claim) break;
        const running: Promise<void> = attempt(claim)
          .catch((error: unknown) => logger.warn({ err: messageOf(error), delivery: claim.id }, 'webhook attempt could not be recorded'))
          .finally(() => {
            inFlight.delete(running);
            if (!stopped) void fill();
          });
        inFlight.add(running);
      }
    } catch (error) {
      logger.warn({ err: messageOf(error) }, 'webhook claim failed');
    }
  });

  const tick = async () => {
    await fanOut();
    await fill();
  };
  const timer = setInterval(() => void tick(), settings.pollMs);
  timer.unref();
  return {
    poke: tick,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await Promise.all([fanOut(), fill()]);
      await Promise.all([...inFlight]);
    },
  };
}

/**
 * `work`, never twice at once. A call while it runs may come after the run has looked (a delivery
 * sent again just after the claims were tried): one more run follows the one under way, shared by
 * every call made meanwhile.
 */
function single(work: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const start = () =>
    (running = work().finally(() => {
      running = undefined;
    }));
  return () => {
    if (next) return next;
    if (!running) return start();
    next = running
      .catch(() => undefined)
      .then(() => {
        next = undefined;
        return start();
      });
    return next;
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
