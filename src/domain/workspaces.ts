import { createHash, randomBytes } from 'node:crypto';
import { isUniqueViolation } from '../data/database-errors';
import { newId, nextTimestamp, now } from '../data/ids';
import type { Store } from '../data/store';
import type { InvitationRecord } from '../data/records';
import type { WorkspaceViewer } from '../data/workspaces-repository';
import { duplicate, forbidden, invitationNotFound, memberNotFound, notAUser, stateConflict, workspaceNotFound } from '../errors';
import type { InvitationCreated, Invitation, Workspace, WorkspaceCreate, WorkspaceMember, WorkspaceRole } from '../model';
import { actorOf, actsAs, assertNotAgentKey, assertRole, memberScope, type Principal } from './access';
import { recordAuditEvent } from './events';
import type { ListQuery, ListResult } from './collection';
import { normaliseEmail, normaliseName } from './users';

/** How long an invitation works. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** What starts every invitation token: the rest is 32 random bytes in base64url. */
export const INVITATION_TOKEN_MARK = 'afi_';

/** Whose role a read shows, and whether it is confined to the principal's workspaces. */
function viewerOf(principal: Principal): WorkspaceViewer {
  return { userId: principal.kind === 'user' ? principal.user.id : undefined, confined: memberScope(principal) !== undefined };
}

/**
 * The workspace when the principal is a member (or reaches every workspace), locked with `lock`
 * until the transaction ends. Not a member: 404, never 403 (a workspace's existence is not
 * disclosed); a member below the operation's role: 403.
 */
export async function reachWorkspace(store: Store, principal: Principal, id: string, options: { lock?: boolean } = {}): Promise<Workspace> {
  assertNotAgentKey(principal);
  const workspace = await store.workspaces.find(id, viewerOf(principal), options);
  if (!workspace) throw workspaceNotFound();
  assertRole(principal, actingRole(principal, workspace));
  return workspace;
}

/** The principal's role where it acts: null when it reaches every workspace (platform admins, service keys). */
function actingRole(principal: Principal, workspace: Workspace): WorkspaceRole | null {
  return memberScope(principal) === undefined ? null : workspace.role;
}

/**
 * Where something a principal creates goes: the workspace named (the caller needs the operation's
 * role there), else the caller's personal workspace (its id is the user's), else, for a service
 * key, `service`. Call it in the create's transaction.
 */
export async function workspaceOfCreate(store: Store, principal: Principal, workspaceId: string | undefined): Promise<string> {
  // Locked: a workspace being deleted (which must hold no agents) waits for the create, or the create for it.
  if (workspaceId !== undefined) return (await reachWorkspace(store, principal, workspaceId, { lock: true })).id;
  return principal.kind === 'user' ? principal.user.id : store.workspaces.serviceId();
}

export function listWorkspaces(store: Store, principal: Principal, query: ListQuery): Promise<ListResult<Workspace>> {
  assertNotAgentKey(principal);
  return store.workspaces.list(query, viewerOf(principal));
}

export const getWorkspace = (store: Store, principal: Principal, id: string): Promise<Workspace> => reachWorkspace(store, principal, id);

/** A shared workspace with its creator as its only member, an owner. Only people create them. */
export async function createWorkspace(store: Store, principal: Principal, input: WorkspaceCreate): Promise<Workspace> {
  assertNotAgentKey(principal);
  if (principal.kind !== 'user') throw forbidden('Only people create workspaces: a workspace needs a user as its owner');
  const at = now();
  const id = newId();
  const name = normaliseName(input.name);
  await store.transaction(async (tx) => {
    await tx.workspaces.insert({ id, name, kind: 'shared', personal_of: null, created_at: at, updated_at: at });
    await tx.workspaces.insertMember({ workspace_id: id, user_id: principal.user.id, role: 'owner', created_at: at, updated_at: at });
    recordAuditEvent(tx, actorOf(principal), 'member.added', id, { user_id: principal.user.id, name: principal.user.name, role: 'owner' });
  });
  return { id, name, kind: 'shared', role: 'owner', created_at: at, updated_at: at };
}

export function renameWorkspace(store: Store, principal: Principal, id: string, name: string): Promise<Workspace> {
  return store.transaction(async (tx) => {
    const workspace = await reachWorkspace(tx, principal, id, { lock: true });
    const at = nextTimestamp(workspace.updated_at);
    const renamed = normaliseName(name);
    await tx.workspaces.rename(id, renamed, at);
    if (renamed !== workspace.name) recordAuditEvent(tx, actorOf(principal), 'workspace.updated', id, { name: renamed, previous_name: workspace.name });
    return { ...workspace, name: renamed, updated_at: at };
  });
}

/** Only a workspace without agents goes (409 otherwise), and a personal one only with its user. */
export function deleteWorkspace(store: Store, principal: Principal, id: string): Promise<void> {
  return store.transaction(async (tx) => {
    const workspace = await reachWorkspace(tx, principal, id, { lock: true });
    if (workspace.kind !== 'shared') throw stateConflict(`A ${workspace.kind} workspace cannot be deleted${workspace.kind === 'personal' ? ': it goes with its user' : ''}`);
    if (await tx.agents.anyInWorkspace(id)) throw stateConflict('The workspace still holds agents: delete them or move them first');
    await tx.workspaces.remove(id);
  });
}

export async function listMembers(store: Store, principal: Principal, workspaceId: string, query: ListQuery): Promise<ListResult<WorkspaceMember>> {
  await reachWorkspace(store, principal, workspaceId);
  return store.workspaces.listMembers(workspaceId, query);
}

/** Only owners (and platform admins, service keys) make, demote or remove owners. */
function assertMayTouchOwners(principal: Principal, role: WorkspaceRole | null): void {
  if (!actsAs(principal, role, 'owner')) throw forbidden('Only owners make, demote or remove owners');
}

/** Refuses to leave a workspace without an owner (409). The workspace's row is locked: changes of its members are serial. */
async function assertKeepsAnOwner(store: Store, workspaceId: string): Promise<void> {
  if ((await store.workspaces.countOwners(workspaceId)) <= 1) throw stateConflict('A workspace always keeps one owner: make another owner first');
}

/**
 * A member's new role: admins give roles up to `admin` to members who are not owners; owners any
 * role to anyone. The last owner keeps the role (409).
 */
export function changeRole(store: Store, principal: Principal, workspaceId: string, userId: string, role: WorkspaceRole): Promise<WorkspaceMember> {
  return store.transaction(async (tx) => {
    const workspace = await reachWorkspace(tx, principal, workspaceId, { lock: true });
    const current = await tx.workspaces.roleOf(workspaceId, userId);
    if (current === undefined) throw memberNotFound();
    if (current === 'owner' || role === 'owner') assertMayTouchOwners(principal, actingRole(principal, workspace));
    if (current === 'owner' && role !== 'owner') await assertKeepsAnOwner(tx, workspaceId);
    if (current !== role) await tx.workspaces.setRole(workspaceId, userId, role, now());
    const member = await tx.workspaces.describeMember(workspaceId, userId);
    if (!member) throw memberNotFound();
    if (current !== role) recordAuditEvent(tx, actorOf(principal), 'member.role_changed', workspaceId, { user_id: userId, name: member.name, role, previous_role: current });
    return member;
  });
}

/**
 * Removes a member: anyone may leave; admins remove members who are not owners, owners anyone.
 * The last owner stays (409). The member's reads of the workspace end with this commit.
 */
export function removeMember(store: Store, principal: Principal, workspaceId: string, userId: string): Promise<void> {
  return store.transaction(async (tx) => {
    const workspace = await reachWorkspace(tx, principal, workspaceId, { lock: true });
    const current = await tx.workspaces.roleOf(workspaceId, userId);
    if (current === undefined) throw memberNotFound();
    const leaving = principal.kind === 'user' && principal.user.id === userId;
    const acting = actingRole(principal, workspace);
    if (!leaving && !actsAs(principal, acting, 'admin')) throw forbidden('Only admins and owners remove other members');
    if (!leaving && current === 'owner') assertMayTouchOwners(principal, acting);
    if (current === 'owner') await assertKeepsAnOwner(tx, workspaceId);
    const member = await tx.workspaces.describeMember(workspaceId, userId);
    await tx.workspaces.removeMember(workspaceId, userId);
    recordAuditEvent(tx, actorOf(principal), 'member.removed', workspaceId, { user_id: userId, name: member?.name ?? null, role: current, left: leaving });
  });
}

const digestOf = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * An invitation for `email` to join with `role` (owners only invite owners), and its token, in
 * this answer only: the store keeps its digest. A member with that e-mail already is 409.
 */
export function createInvitation(store: Store, principal: Principal, workspaceId: string, input: { email: string; role: WorkspaceRole }, clock: () => number = Date.now): Promise<InvitationCreated> {
  return store.transaction(async (tx) => {
    const workspace = await reachWorkspace(tx, principal, workspaceId, { lock: true });
    if (input.role === 'owner') assertMayTouchOwners(principal, actingRole(principal, workspace));
    const email = normaliseEmail(input.email);
    const invitee = await tx.users.findByEmail(email);
    if (invitee && (await tx.workspaces.roleOf(workspaceId, invitee.id)) !== undefined) throw duplicate('A member of the workspace has this e-mail already');
    const token = `${INVITATION_TOKEN_MARK}${randomBytes(32).toString('base64url')}`;
    const created = clock();
    const invitation: Invitation = {
      id: newId(),
      workspace_id: workspaceId,
      email,
      role: input.role,
      invited_by: principal.kind === 'user' ? principal.user.id : null,
      created_at: new Date(created).toISOString(),
      expires_at: new Date(created + INVITATION_TTL_MS).toISOString(),
    };
    await tx.workspaces.insertInvitation({ ...invitation, token_digest: digestOf(token) });
    recordAuditEvent(tx, actorOf(principal), 'invitation.created', workspaceId, { id: invitation.id, email, role: input.role, expires_at: invitation.expires_at });
    return { ...invitation, token };
  });
}

export async function listInvitations(store: Store, principal: Principal, workspaceId: string, query: ListQuery): Promise<ListResult<Invitation>> {
  await reachWorkspace(store, principal, workspaceId);
  const page = await store.workspaces.listPendingInvitations(workspaceId, query, now());
  return { ...page, items: page.items.map(withoutState) };
}

const withoutState = ({ accepted_at: _accepted, revoked_at: _revoked, ...invitation }: InvitationRecord): Invitation => invitation;

export async function getInvitation(store: Store, principal: Principal, workspaceId: string, invitationId: string): Promise<Invitation> {
  await reachWorkspace(store, principal, workspaceId);
  const invitation = await store.workspaces.findPendingInvitation(workspaceId, invitationId, now());
  if (!invitation) throw invitationNotFound();
  return withoutState(invitation);
}

export function revokeInvitation(store: Store, principal: Principal, workspaceId: string, invitationId: string): Promise<void> {
  return store.transaction(async (tx) => {
    await reachWorkspace(tx, principal, workspaceId, { lock: true });
    const revoked = await tx.workspaces.revokeInvitation(workspaceId, invitationId, now());
    if (!revoked) throw invitationNotFound();
    recordAuditEvent(tx, actorOf(principal), 'invitation.revoked', workspaceId, { id: revoked.id, email: revoked.email, role: revoked.role });
  });
}

/**
 * The signed-in user with the invitation's e-mail joins its workspace with its role, once. Every
 * refusal (unknown, used, revoked, expired, another user's, a member already) changes nothing.
 */
export function acceptInvitation(store: Store, principal: Principal, token: string, clock: () => number = Date.now): Promise<Workspace> {
  assertNotAgentKey(principal);
  if (principal.kind !== 'user') throw notAUser();
  const user = principal.user;
  return store.transaction(async (tx) => {
    const invitation = await tx.workspaces.findInvitationByDigest(digestOf(token));
    if (!invitation) throw invitationNotFound();
    if (invitation.accepted_at !== null) throw stateConflict('This invitation has been accepted already');
    if (invitation.revoked_at !== null) throw stateConflict('This invitation was revoked');
    if (Date.parse(invitation.expires_at) <= clock()) throw stateConflict('This invitation has expired');
    if (invitation.email !== normaliseEmail(user.email)) throw forbidden('This invitation is for another e-mail address');
    if ((await tx.workspaces.roleOf(invitation.workspace_id, user.id)) !== undefined) throw duplicate('You are a member of this workspace already');
    const at = now();
    if (!(await tx.workspaces.markAccepted(invitation.id, user.id, at))) throw stateConflict('This invitation has been accepted already');
    try {
      await tx.workspaces.insertMember({ workspace_id: invitation.workspace_id, user_id: user.id, role: invitation.role, created_at: at, updated_at: at });
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicate('You are a member of this workspace already');
      throw error;
    }
    const actor = actorOf(principal);
    recordAuditEvent(tx, actor, 'invitation.accepted', invitation.workspace_id, { id: invitation.id, email: invitation.email, role: invitation.role, user_id: user.id });
    recordAuditEvent(tx, actor, 'member.added', invitation.workspace_id, { user_id: user.id, name: user.name, role: invitation.role, invitation_id: invitation.id });
    return (await tx.workspaces.find(invitation.workspace_id, { userId: user.id, confined: true })) ?? Promise.reject(workspaceNotFound());
  });
}
