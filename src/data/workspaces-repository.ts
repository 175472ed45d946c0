import type { Knex } from 'knex';
import type { ListQuery, ListResult } from './list-query';
import type { Workspace, WorkspaceKind, WorkspaceMember, WorkspaceRole } from '../model';
import { runListQuery } from './collection-query';
import type { Executor } from './compiled-query';
import { isId } from './ids';
import type { InvitationRecord } from './records';
import type { RowMapper } from './row-mapper';
import { withMemberRole } from './workspace-scope';

/** A workspace as stored: a personal one names its user. */
export interface WorkspaceRow {
  id: string;
  name: string;
  kind: WorkspaceKind;
  personal_of: string | null;
  created_at: string;
  updated_at: string;
}

export interface MembershipRow {
  workspace_id: string;
  user_id: string;
  role: WorkspaceRole;
  created_at: string;
  updated_at: string;
}

export interface NewInvitation {
  id: string;
  workspace_id: string;
  email: string;
  role: WorkspaceRole;
  token_digest: string;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
}

/** Whose role a workspace read shows, and whether the read is confined to that user's workspaces. */
export interface WorkspaceViewer {
  userId?: string;
  /** Only the user's workspaces (a member's read); otherwise every workspace (platform admins, service keys). */
  confined: boolean;
}

export interface WorkspacesRepository {
  insert(workspace: WorkspaceRow): Promise<void>;
  /** The workspace with the viewer's role in it; outside a confined viewer's workspaces, undefined. `lock` locks the workspace's row. */
  find(id: string, viewer: WorkspaceViewer, options?: { lock?: boolean }): Promise<Workspace | undefined>;
  list(query: ListQuery, viewer: WorkspaceViewer): Promise<ListResult<Workspace>>;
  rename(id: string, name: string, at: string): Promise<void>;
  remove(id: string): Promise<void>;
  /** The one workspace service keys' agents go to. */
  serviceId(): Promise<string>;
  /** The workspaces a user is a member of, with their role in each. */
  membershipsOf(userId: string): Promise<Array<{ workspace_id: string; role: WorkspaceRole }>>;

  /** The user's role in the workspace, if a member. */
  roleOf(workspaceId: string, userId: string): Promise<WorkspaceRole | undefined>;
  listMembers(workspaceId: string, query: ListQuery): Promise<ListResult<WorkspaceMember>>;
  insertMember(member: MembershipRow): Promise<void>;
  setRole(workspaceId: string, userId: string, role: WorkspaceRole, at: string): Promise<void>;
  removeMember(workspaceId: string, userId: string): Promise<void>;
  countOwners(workspaceId: string): Promise<number>;
  /** The member with the user's details, as the members' list shows them. */
  describeMember(workspaceId: string, userId: string): Promise<WorkspaceMember | undefined>;

  insertInvitation(invitation: NewInvitation): Promise<void>;
  /** The invitation with this token digest, accepted, revoked or expired ones included. */
  findInvitationByDigest(digest: string): Promise<InvitationRecord | undefined>;
  /** A pending invitation of the workspace (neither accepted nor revoked, not expired at `at`). */
  findPendingInvitation(workspaceId: string, invitationId: string, at: string): Promise<InvitationRecord | undefined>;
  /** Pending invitations (neither accepted nor revoked, not expired at `at`), newest first. */
  listPendingInvitations(workspaceId: string, query: ListQuery, at: string): Promise<ListResult<InvitationRecord>>;
  /** Marks a pending invitation revoked; false when there is none such. */
  revokeInvitation(workspaceId: string, invitationId: string, at: string): Promise<InvitationRecord | undefined>;
  /** Marks the invitation accepted, unless it was accepted or revoked meanwhile (then false). */
  markAccepted(invitationId: string, userId: string, at: string): Promise<boolean>;
}

/** Created once per process and database: the `service` workspace never changes its id. */
const serviceIds = new WeakMap<object, Promise<string>>();

export function createWorkspacesRepository(db: Executor, mapper: RowMapper, canLock: boolean, root: Knex): WorkspacesRepository {
  const withRole = (viewer: WorkspaceViewer) => {
    const query = db('workspaces').select('workspaces.*');
    return viewer.userId === undefined ? query : withMemberRole(query, 'workspaces.id', viewer.userId, viewer.confined ? 'inner' : 'left');
  };
  const invitations = () => db('workspace_invitations').select('id', 'workspace_id', 'email', 'role', 'invited_by', 'created_at', 'expires_at', 'accepted_at', 'revoked_at');
  const pending = (workspaceId: string, at: string) => invitations().where({ workspace_id: workspaceId }).whereNull('accepted_at').whereNull('revoked_at').where('expires_at', '>', at);
  return {
    async insert(workspace) {
      await db('workspaces').insert(workspace);
    },
    async find(id, viewer, options = {}) {
      if (!isId(id)) return undefined;
      const query = withRole(viewer).where('workspaces.id', id).first();
      if (options.lock && canLock) query.forUpdate('workspaces');
      const row = await query;
      return row ? mapper.toWorkspace(row) : undefined;
    },
    async list(query, viewer) {
      const result = await runListQuery(withRole(viewer), query, {});
      return { ...result, items: result.items.map(mapper.toWorkspace) };
    },
    async rename(id, name, at) {
      await db('workspaces').where({ id }).update({ name, updated_at: at });
    },
    async remove(id) {
      await db('workspaces').where({ id }).delete();
    },
    serviceId() {
      let id = serviceIds.get(root);
      if (id === undefined) {
        id = db('workspaces')
          .select('id')
          .where({ kind: 'service' })
          .first()
          .then((row: { id: unknown } | undefined) => {
            if (!row) throw new Error('the service workspace is missing: the migrations have not run');
            return String(row.id);
          });
        id.catch(() => serviceIds.delete(root));
        serviceIds.set(root, id);
      }
      return id;
    },
    async membershipsOf(userId) {
      const rows: Array<{ workspace_id: unknown; role: unknown }> = await db('workspace_members').select('workspace_id', 'role').where({ user_id: userId });
      return rows.map((row) => ({ workspace_id: String(row.workspace_id), role: row.role as WorkspaceRole }));
    },

    async roleOf(workspaceId, userId) {
      if (!isId(userId) || !isId(workspaceId)) return undefined;
      const row = await db('workspace_members').select('role').where({ workspace_id: workspaceId, user_id: userId }).first();
      return row ? (row.role as WorkspaceRole) : undefined;
    },
    async listMembers(workspaceId, query) {
      // The users' ids order the pages (the keyset's `id`): accounts in the order they were made.
      const base = db('workspace_members')
        .join('users', 'users.id', 'workspace_members.user_id')
        .select('users.id', { user_id: 'users.id' }, 'users.name', 'users.email', 'workspace_members.role', 'workspace_members.created_at', 'workspace_members.updated_at')
        .where('workspace_members.workspace_id', workspaceId);
      const result = await runListQuery(base, query, {});
      return { ...result, items: result.items.map(mapper.toWorkspaceMember) };
    },
    async describeMember(workspaceId, userId) {
      const row = await db('workspace_members')
        .join('users', 'users.id', 'workspace_members.user_id')
        .select({ user_id: 'users.id' }, 'users.name', 'users.email', 'workspace_members.role', 'workspace_members.created_at', 'workspace_members.updated_at')
        .where({ 'workspace_members.workspace_id': workspaceId, 'workspace_members.user_id': userId })
        .first();
      return row ? mapper.toWorkspaceMember(row) : undefined;
    },
    async insertMember(member) {
      await db('workspace_members').insert(member);
    },
    async setRole(workspaceId, userId, role, at) {
      await db('workspace_members').where({ workspace_id: workspaceId, user_id: userId }).update({ role, updated_at: at });
    },
    async removeMember(workspaceId, userId) {
      await db('workspace_members').where({ workspace_id: workspaceId, user_id: userId }).delete();
    },
    async countOwners(workspaceId) {
      const row = await db('workspace_members').where({ workspace_id: workspaceId, role: 'owner' }).count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },

    async insertInvitation(invitation) {
      await db('workspace_invitations').insert(invitation);
    },
    async findInvitationByDigest(digest) {
      const row = await invitations().where({ token_digest: digest }).first();
      return row ? mapper.toInvitation(row) : undefined;
    },
    async findPendingInvitation(workspaceId, invitationId, at) {
      if (!isId(invitationId)) return undefined;
      const row = await pending(workspaceId, at).where({ id: invitationId }).first();
      return row ? mapper.toInvitation(row) : undefined;
    },
    async listPendingInvitations(workspaceId, query, at) {
      const base = pending(workspaceId, at);
      const result = await runListQuery(base, query, {});
      return { ...result, items: result.items.map(mapper.toInvitation) };
    },
    async revokeInvitation(workspaceId, invitationId, at) {
      if (!isId(invitationId)) return undefined;
      const changed = await db('workspace_invitations')
        .where({ id: invitationId, workspace_id: workspaceId })
        .whereNull('accepted_at')
        .whereNull('revoked_at')
        .update({ revoked_at: at });
      if (changed === 0) return undefined;
      const row = await invitations().where({ id: invitationId }).first();
      return row ? mapper.toInvitation(row) : undefined;
    },
    async markAccepted(invitationId, userId, at) {
      const changed = await db('workspace_invitations').where({ id: invitationId }).whereNull('accepted_at').whereNull('revoked_at').update({ accepted_at: at, accepted_by: userId });
      return changed > 0;
    },
  };
}
