// Workspaces: the list with a form to make one; one workspace's members (roles changed, removed,
// leaving), its invitations (made with a link shown once, revoked) and its name; and the page an
// invitation's link opens, where the invited person joins.
import type { components } from '@agent-fleet/client';
import { unwrap } from '@agent-fleet/client';
import { useState } from 'preact/hooks';
import { api, messageOf } from '../../api';
import { ConfirmAction } from '../confirm-action';
import { useLoad } from '../load';
import { hrefOf } from '../route';
import { SecretOnce } from '../secret-once';
import { useSubmission } from '../submit';
import { Ago, Empty, Loading, Problem, ViewHeading } from '../ui';
import { useWorkspaces, workspaceLabel, WORKSPACE_ROLES, type Workspace, type WorkspaceRole } from '../workspaces';

type Member = components['schemas']['WorkspaceMember'];
type Invitation = components['schemas']['Invitation'];

export function WorkspacesView() {
  const { list, reload } = useWorkspaces();
  const [name, setName] = useState('');
  const { busy, problem, run } = useSubmission('The workspace could not be created. Please try again.');
  const submit = (event: Event) => {
    event.preventDefault();
    return run(async () => {
      const { data } = await unwrap(api.POST('/api/v1/workspaces', { body: { name } }));
      setName('');
      reload();
      window.location.hash = hrefOf.workspace(data.id);
    });
  };
  return (
    <section class="workspaces" aria-labelledby="workspaces-title">
      <ViewHeading>Workspaces</ViewHeading>
      {list === undefined ? (
        <Loading what="your workspaces" />
      ) : (
        <ul class="workspace-list">
          {list.map((workspace) => (
            <li key={workspace.id}>
              <a href={hrefOf.workspace(workspace.id)}>{workspaceLabel(workspace)}</a> <span class="muted">{workspace.role ?? 'platform admin'}</span>
            </li>
          ))}
        </ul>
      )}
      <form class="inline-form" onSubmit={(event) => void submit(event)} aria-labelledby="new-workspace-title">
        <h2 id="new-workspace-title">Make a workspace</h2>
        <label>
          Name
          <input value={name} onInput={(event) => setName(event.currentTarget.value)} required maxLength={100} />
        </label>
        <button type="submit" disabled={busy}>
          Make workspace
        </button>
        {problem && <Problem message={problem} />}
      </form>
    </section>
  );
}

async function readMembers(workspaceId: string): Promise<Member[]> {
  const members: Member[] = [];
  for await (const member of api.paginate('/api/v1/workspaces/{workspace_id}/members', { params: { path: { workspace_id: workspaceId }, query: { limit: 100 } } })) {
    members.push(member as Member);
  }
  return members;
}

async function readInvitations(workspaceId: string): Promise<Invitation[]> {
  return (await unwrap(api.GET('/api/v1/workspaces/{workspace_id}/invitations', { params: { path: { workspace_id: workspaceId }, query: { limit: 100 } } }))).data;
}

/** The roles `actor` may give: up to admin, and owner only by an owner (a platform admin may give any). */
function givableRoles(actor: WorkspaceRole | null | undefined, platformAdmin: boolean): readonly WorkspaceRole[] {
  return platformAdmin || actor === 'owner' ? WORKSPACE_ROLES : WORKSPACE_ROLES.filter((role) => role !== 'owner');
}

function RoleControl({ workspace, member, onChanged, givable }: { workspace: Workspace; member: Member; onChanged: () => void; givable: readonly WorkspaceRole[] }) {
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const change = async (role: WorkspaceRole) => {
    setBusy(true);
    setProblem(undefined);
    const { error, response } = await api.PATCH('/api/v1/workspaces/{workspace_id}/members/{user_id}', {
      params: { path: { workspace_id: workspace.id, user_id: member.user_id } },
      body: { role },
    });
    setBusy(false);
    if (!response.ok) setProblem(messageOf(error, 'The role could not be changed. Please try again.'));
    onChanged();
  };
  return (
    <>
      <select aria-label={`Role of ${member.name}`} value={member.role} disabled={busy} onChange={(event) => void change(event.currentTarget.value as WorkspaceRole)}>
        {WORKSPACE_ROLES.map((role) => (
          <option value={role} disabled={!givable.includes(role) && role !== member.role}>
            {role}
          </option>
        ))}
      </select>
      {problem && <Problem message={problem} />}
    </>
  );
}

async function remove(workspaceId: string, userId: string): Promise<string | undefined> {
  const { error, response } = await api.DELETE('/api/v1/workspaces/{workspace_id}/members/{user_id}', { params: { path: { workspace_id: workspaceId, user_id: userId } } });
  return response.ok ? undefined : messageOf(error, 'This could not be done. Please try again.');
}

function InviteForm({ workspace, givable, onInvited }: { workspace: Workspace; givable: readonly WorkspaceRole[]; onInvited: () => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<WorkspaceRole>('viewer');
  const [link, setLink] = useState<string | undefined>(undefined);
  const { busy, problem, run } = useSubmission('The invitation could not be made. Please try again.');
  const submit = (event: Event) => {
    event.preventDefault();
    return run(async () => {
      const { data } = await unwrap(api.POST('/api/v1/workspaces/{workspace_id}/invitations', { params: { path: { workspace_id: workspace.id } }, body: { email, role } }));
      setEmail('');
      setLink(`${window.location.origin}/${hrefOf.join(data.token)}`);
      onInvited();
    });
  };
  if (link !== undefined) {
    return (
      <SecretOnce title="Invitation made" label="Invitation link" secret={link} onDone={() => setLink(undefined)}>
        <p>Send this link to the person you invited. It is shown only now, works once, for 7 days, and only for the account with that e-mail address.</p>
      </SecretOnce>
    );
  }
  return (
    <form class="inline-form" onSubmit={(event) => void submit(event)} aria-labelledby="invite-title">
      <h2 id="invite-title">Invite someone</h2>
      <label>
        E-mail
        <input type="email" value={email} onInput={(event) => setEmail(event.currentTarget.value)} required maxLength={320} />
      </label>
      <label>
        Role
        <select value={role} onChange={(event) => setRole(event.currentTarget.value as WorkspaceRole)}>
          {givable.map((value) => (
            <option value={value}>{value}</option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={busy}>
        Invite
      </button>
      {problem && <Problem message={problem} />}
    </form>
  );
}

function Invitations({ workspace, version }: { workspace: Workspace; version: number }) {
  const invitations = useLoad(() => readInvitations(workspace.id), [workspace.id, version]);
  if (invitations.data === undefined) return invitations.error ? <Problem message={invitations.error} onRetry={invitations.reload} /> : <Loading what="the invitations" />;
  if (invitations.data.length === 0) return <p class="muted">No invitation is waiting.</p>;
  return (
    <ul class="invitations" aria-label="Pending invitations">
      {invitations.data.map((invitation) => (
        <li key={invitation.id}>
          <span>
            {invitation.email} as {invitation.role}, until <Ago at={invitation.expires_at} />
          </span>
          <ConfirmAction
            label="Revoke"
            confirmLabel="Confirm revoke"
            subject={`invitation of ${invitation.email}`}
            onConfirm={async () => {
              const { error, response } = await api.DELETE('/api/v1/workspaces/{workspace_id}/invitations/{invitation_id}', { params: { path: { workspace_id: workspace.id, invitation_id: invitation.id } } });
              invitations.reload();
              return response.ok ? undefined : messageOf(error, 'The invitation could not be revoked. Please try again.');
            }}
          />
        </li>
      ))}
    </ul>
  );
}

function RenameForm({ workspace, onRenamed }: { workspace: Workspace; onRenamed: () => void }) {
  const [name, setName] = useState(workspace.name);
  const { busy, problem, run } = useSubmission('The workspace could not be renamed. Please try again.');
  const submit = (event: Event) => {
    event.preventDefault();
    return run(async () => {
      await unwrap(api.PATCH('/api/v1/workspaces/{workspace_id}', { params: { path: { workspace_id: workspace.id } }, body: { name } }));
      onRenamed();
    });
  };
  return (
    <form class="inline-form" onSubmit={(event) => void submit(event)} aria-labelledby="rename-title">
      <h2 id="rename-title">Name</h2>
      <label>
        Workspace name
        <input value={name} onInput={(event) => setName(event.currentTarget.value)} required maxLength={100} />
      </label>
      <button type="submit" disabled={busy}>
        Rename
      </button>
      {problem && <Problem message={problem} />}
    </form>
  );
}

export function WorkspaceView({ workspaceId }: { workspaceId: string }) {
  const { list, me, may, reload } = useWorkspaces();
  const members = useLoad(() => readMembers(workspaceId), [workspaceId]);
  const [invited, setInvited] = useState(0);
  const workspace = list?.find((candidate) => candidate.id === workspaceId);
  const back = (
    <p class="back">
      <a href={hrefOf.workspaces()}>
        <span aria-hidden="true">← </span>Workspaces
      </a>
    </p>
  );
  if (list !== undefined && workspace === undefined) {
    return (
      <section class="workspace-view">
        {back}
        <ViewHeading>No such workspace</ViewHeading>
        <Empty>
          <p>You are not a member of a workspace with this id: you may have left it or been removed.</p>
        </Empty>
      </section>
    );
  }
  if (workspace === undefined) return <Loading what="the workspace" />;
  const administer = may(workspace.id, 'admin');
  const platformAdmin = me?.role === 'admin';
  const givable = givableRoles(workspace.role, platformAdmin);
  const touchesOwners = platformAdmin || workspace.role === 'owner';
  const changed = () => {
    members.reload();
    reload();
  };
  return (
    <section class="workspace-view" aria-labelledby="workspace-title">
      {back}
      <ViewHeading>{workspaceLabel(workspace)}</ViewHeading>
      <p class="summary">Your role: {workspace.role ?? 'platform admin'}</p>
      <h2>Members</h2>
      {members.error && <Problem message={members.error} onRetry={members.reload} />}
      {members.data === undefined && !members.error && <Loading what="the members" />}
      {members.data !== undefined && (
        <table class="members">
          <caption class="visually-hidden">Members of {workspace.name}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.data.map((member) => {
              const self = member.user_id === me?.id;
              const mayChange = administer && (touchesOwners || member.role !== 'owner');
              return (
                <tr key={member.user_id}>
                  <th scope="row">
                    {member.name}
                    {self ? ' (you)' : ''}
                  </th>
                  <td>{member.email}</td>
                  <td>{mayChange ? <RoleControl workspace={workspace} member={member} givable={givable} onChanged={changed} /> : member.role}</td>
                  <td>
                    {self && workspace.kind !== 'personal' && (
                      <ConfirmAction
                        label="Leave"
                        confirmLabel="Confirm leave"
                        subject={workspace.name}
                        onConfirm={async () => {
                          const refused = await remove(workspace.id, member.user_id);
                          if (refused === undefined) {
                            reload();
                            window.location.hash = hrefOf.workspaces();
                          }
                          return refused;
                        }}
                      />
                    )}
                    {!self && mayChange && (
                      <ConfirmAction
                        label="Remove"
                        confirmLabel="Confirm remove"
                        subject={member.name}
                        onConfirm={async () => {
                          const refused = await remove(workspace.id, member.user_id);
                          changed();
                          return refused;
                        }}
                      />
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {administer && (
        <>
          <InviteForm workspace={workspace} givable={givable} onInvited={() => setInvited((count) => count + 1)} />
          <h2>Invitations</h2>
          <Invitations workspace={workspace} version={invited} />
          {workspace.kind !== 'personal' && <RenameForm workspace={workspace} onRenamed={reload} />}
        </>
      )}
    </section>
  );
}

export function JoinView({ token }: { token: string }) {
  const { reload } = useWorkspaces();
  const { busy, problem, run } = useSubmission('The invitation could not be accepted. Please try again.');
  const accept = () =>
    run(async () => {
      const { data } = await unwrap(api.POST('/api/v1/invitations/accept', { body: { token } }));
      reload();
      // Replaces the link's entry: the used token does not stay in the history.
      window.location.replace(hrefOf.workspace(data.id));
    });
  return (
    <section class="join" aria-labelledby="join-title">
      <ViewHeading>Join a workspace</ViewHeading>
      <p>You were invited to a workspace. Joining adds you with the role the invitation names.</p>
      <button type="button" disabled={busy} onClick={() => void accept()}>
        Join the workspace
      </button>
      {problem && <Problem message={problem} />}
    </section>
  );
}
