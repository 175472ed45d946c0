// The workspaces the signed-in person is a member of, the one the console is looking at (every one,
// or one chosen in the switcher, for as long as the page is open: the pages keep nothing in the
// browser's storage), and what the person may do where: the service decides, and the console shows
// only the controls it would accept.
import type { components } from '@agent-fleet/client';
import { createContext, type ComponentChildren } from 'preact';
import { useCallback, useContext, useMemo, useState } from 'preact/hooks';
import { api } from '../api';
import { useLoad } from './load';

export type Workspace = components['schemas']['Workspace'];
export type WorkspaceRole = components['schemas']['WorkspaceRole'];
type User = components['schemas']['User'];

/** Least first; the compiler checks the list against api.yaml's WorkspaceRole. */
export const WORKSPACE_ROLES = Object.keys({ viewer: true, operator: true, admin: true, owner: true } satisfies Record<WorkspaceRole, true>) as readonly WorkspaceRole[];
const rankOf = (role: WorkspaceRole) => WORKSPACE_ROLES.indexOf(role);

export interface Workspaces {
  me: User | undefined;
  /** Every workspace the person is a member of (a platform admin: every workspace), once read. */
  list: Workspace[] | undefined;
  /** The workspace the console is looking at; undefined: every one. */
  current: Workspace | undefined;
  choose: (workspaceId: string | undefined) => void;
  reload: () => void;
  /** Whether the person may do what needs `least` in the workspace (a platform admin may everywhere). */
  may: (workspaceId: string | undefined, least: WorkspaceRole) => boolean;
  /** The workspace a create goes to: the one looked at, else the person's own. */
  createIn: string | undefined;
}

async function readWorkspaces(): Promise<{ me: User; list: Workspace[] }> {
  const [{ data: me, error, response }, list] = await Promise.all([api.GET('/api/v1/me'), collect()]);
  if (!response.ok || !me) throw error;
  return { me: me.data, list };
}

async function collect(): Promise<Workspace[]> {
  const list: Workspace[] = [];
  for await (const workspace of api.paginate('/api/v1/workspaces', { params: { query: { limit: 100 } } })) list.push(workspace as Workspace);
  return list;
}

const WorkspacesContext = createContext<Workspaces>({
  me: undefined,
  list: undefined,
  current: undefined,
  choose: () => undefined,
  reload: () => undefined,
  may: () => false,
  createIn: undefined,
});

export function WorkspacesProvider({ children }: { children: ComponentChildren }) {
  const loaded = useLoad(readWorkspaces, []);
  const [choice, setChoice] = useState<string | undefined>(undefined);
  const choose = useCallback((workspaceId: string | undefined) => setChoice(workspaceId), []);
  const value = useMemo<Workspaces>(() => {
    const me = loaded.data?.me;
    const list = loaded.data?.list;
    const current = list?.find((workspace) => workspace.id === choice);
    const may = (workspaceId: string | undefined, least: WorkspaceRole) => {
      if (me?.role === 'admin') return true;
      const role = list?.find((workspace) => workspace.id === workspaceId)?.role;
      return role !== undefined && role !== null && rankOf(role) >= rankOf(least);
    };
    return { me, list, current, choose, reload: loaded.reload, may, createIn: current?.id ?? me?.id };
  }, [loaded.data, loaded.reload, choice, choose]);
  return <WorkspacesContext.Provider value={value}>{children}</WorkspacesContext.Provider>;
}

export const useWorkspaces = (): Workspaces => useContext(WorkspacesContext);

export interface Rights {
  /** Change agents and tasks, work leases, manage schedules and agent keys. */
  operate: boolean;
  /** Manage webhooks, invitations and members. */
  administer: boolean;
}

/** What the person may do with the data of one workspace (an agent's, a webhook's): controls show by these. */
export function useRights(workspaceId: string | undefined): Rights {
  const { may } = useWorkspaces();
  return { operate: may(workspaceId, 'operator'), administer: may(workspaceId, 'admin') };
}

/** The rights a view's sections share (an agent's page gives its sections the agent's workspace's). */
export const RightsContext = createContext<Rights>({ operate: false, administer: false });
export const useViewRights = (): Rights => useContext(RightsContext);

/** A workspace's name as lists show it: a person's own workspace says so. */
export function workspaceLabel(workspace: Workspace): string {
  return workspace.kind === 'personal' ? `${workspace.name} (personal)` : workspace.name;
}

/** The switcher: every workspace, or one. */
export function WorkspaceSwitcher() {
  const { list, current, choose } = useWorkspaces();
  if (list === undefined) return null;
  return (
    <label class="workspace-switcher">
      Workspace
      <select value={current?.id ?? ''} onChange={(event) => choose(event.currentTarget.value || undefined)}>
        <option value="">All workspaces</option>
        {list.map((workspace) => (
          <option value={workspace.id} key={workspace.id}>
            {workspaceLabel(workspace)}
            {workspace.role ? ` · ${workspace.role}` : ''}
          </option>
        ))}
      </select>
    </label>
  );
}
