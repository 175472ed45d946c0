import type { Request } from 'express';
import type { Store } from '../../data/store';
import * as events from '../../domain/events';
import { principalOf } from '../authenticate';
import type { EventStreams } from '../event-stream';
import { wantsEventStream } from '../event-stream';
import type { OperationHandlers } from '../operations';
import type { Handler } from '../typed-handler';

const MAX_PAGE = 100;

/**
 * The fleet's events: a page (JSON), or a live Server-Sent Events stream (`Accept: text/event-stream`)
 * whose credential `stillAuthenticated` checks again as it goes (credentialCheckFor).
 */
export function eventHandlers(
  store: Store,
  streams: EventStreams,
  stillAuthenticated: (req: Pick<Request, 'get' | 'headers' | 'method'>) => Promise<boolean>,
): Pick<OperationHandlers, 'listEvents'> {
  const listEvents: Handler<'listEvents'> = async (req, res) => {
    const principal = principalOf(req);
    const scope = await events.eventScopeOf(store, principal, { agentId: req.query.agent_id, workspaceId: req.query.workspace_id, types: req.query.types });
    // `after` wins over the header an EventSource sends when it reconnects.
    const after = req.query.after ?? req.get('last-event-id');
    // A stream ends at a keep-alive once its credential stops working or the reader's workspaces or roles change.
    const stillValid = async () => (await stillAuthenticated(req)) && (await events.scopeStillHolds(store, scope));
    if (wantsEventStream(req)) return streams.open(req, res, principal, scope, after, stillValid);
    const page = await events.listEvents(store, scope, after, Math.min(req.query.limit ?? 20, MAX_PAGE));
    const nextCursor = page.hasMore ? (page.items.at(-1)?.id ?? null) : null;
    res.set('Cache-Control', 'private, no-cache').json({ data: page.items, meta: { nextCursor, hasMore: page.hasMore } });
  };
  return { listEvents };
}
