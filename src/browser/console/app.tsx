import type { ComponentChildren } from 'preact';
import { signInAgainHref } from '../api';
import { useLiveState, type LiveState } from './live';
import { hrefOf, useRoute, type Route } from './route';
import { Empty, ViewHeading } from './ui';
import { AgentView } from './views/agent';
import { EventsView } from './views/events';
import { FleetView } from './views/fleet';
import { TaskView } from './views/task';
import { WebhooksView, WebhookView } from './views/webhooks';
import { JoinView, WorkspacesView, WorkspaceView } from './views/workspace';
import { WorkspacesProvider, WorkspaceSwitcher } from './workspaces';

const LIVE_TEXT: Record<LiveState, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  stopped: 'Not live: reload the page',
  'signed-out': 'Signed out',
};

function LiveIndicator() {
  const state = useLiveState();
  return (
    <p class={`live live-${state}`} role="status" aria-live="polite">
      <span class="live-mark" aria-hidden="true" />
      {LIVE_TEXT[state]}
      {state === 'signed-out' && (
        <>
          {': '}
          <a href={signInAgainHref()}>sign in again</a>
        </>
      )}
    </p>
  );
}

function NavLink({ href, current, children }: { href: string; current: boolean; children: ComponentChildren }) {
  return (
    <a href={href} aria-current={current ? 'page' : undefined}>
      {children}
    </a>
  );
}

function viewOf(route: Route) {
  switch (route.view) {
    case 'fleet':
      return <FleetView />;
    case 'agent':
      return <AgentView key={route.agentId} agentId={route.agentId} />;
    case 'task':
      return <TaskView key={`${route.agentId}/${route.taskId}`} agentId={route.agentId} taskId={route.taskId} />;
    case 'events':
      return <EventsView />;
    case 'webhooks':
      return <WebhooksView />;
    case 'webhook':
      return <WebhookView key={route.webhookId} webhookId={route.webhookId} />;
    case 'workspaces':
      return <WorkspacesView />;
    case 'workspace':
      return <WorkspaceView key={route.workspaceId} workspaceId={route.workspaceId} />;
    case 'join':
      return <JoinView token={route.token} />;
    case 'missing':
      return (
        <>
          <ViewHeading>Nothing here</ViewHeading>
          <Empty>
            <p>
              The console has no view at <code>{route.hash}</code>. <a href={hrefOf.fleet()}>Go to your fleet</a>.
            </p>
          </Empty>
        </>
      );
  }
}

export function Console() {
  const route = useRoute();
  const section =
    route.view === 'agent' || route.view === 'task' || route.view === 'missing'
      ? 'fleet'
      : route.view === 'webhook'
        ? 'webhooks'
        : route.view === 'workspace' || route.view === 'join'
          ? 'workspaces'
          : route.view;
  return (
    <WorkspacesProvider>
      <div class="console-bar">
        <nav aria-label="Console">
          <NavLink href={hrefOf.fleet()} current={section === 'fleet'}>
            Fleet
          </NavLink>
          <NavLink href={hrefOf.events()} current={section === 'events'}>
            Events
          </NavLink>
          <NavLink href={hrefOf.webhooks()} current={section === 'webhooks'}>
            Webhooks
          </NavLink>
          <NavLink href={hrefOf.workspaces()} current={section === 'workspaces'}>
            Workspaces
          </NavLink>
        </nav>
        <WorkspaceSwitcher />
        <LiveIndicator />
      </div>
      <div class="view">{viewOf(route)}</div>
    </WorkspacesProvider>
  );
}
