import type { Store } from '../../data/store';
import * as workspaces from '../../domain/workspaces';
import { principalOf } from '../authenticate';
import { cursorMeta, toListQuery } from '../collection-params';
import { envelope } from '../envelope';
import type { OperationHandlers, PathTo } from '../operations';
import type { Handler } from '../typed-handler';

/** Memberships change behind every read: revalidate each. The answer holding a token is never stored. */
const READ_CACHING = { 'Cache-Control': 'private, no-cache' };
const NO_STORE = { 'Cache-Control': 'no-store' };

/** Workspaces, their members and invitations; the role each operation needs is api.yaml's (`x-workspace-role`). */
export function workspaceHandlers(
  store: Store,
  pathTo: PathTo,
): Pick<
  OperationHandlers,
  | 'listWorkspaces'
  | 'createWorkspace'
  | 'getWorkspace'
  | 'updateWorkspace'
  | 'deleteWorkspace'
  | 'listWorkspaceMembers'
  | 'updateWorkspaceMember'
  | 'removeWorkspaceMember'
  | 'listInvitations'
  | 'createInvitation'
  | 'getInvitation'
  | 'revokeInvitation'
  | 'acceptInvitation'
> {
  const listWorkspaces: Handler<'listWorkspaces'> = async (req, res) => {
    const page = await workspaces.listWorkspaces(store, principalOf(req), toListQuery(req.query, 'cursor', '-created_at'));
    res.set(READ_CACHING).json({ data: page.items, meta: cursorMeta(page) });
  };
  const createWorkspace: Handler<'createWorkspace'> = async (req, res) => {
    const workspace = await workspaces.createWorkspace(store, principalOf(req), req.body);
    res.status(201).location(pathTo('getWorkspace', { workspace_id: workspace.id })).json(envelope(workspace));
  };
  const getWorkspace: Handler<'getWorkspace'> = async (req, res) => {
    res.set(READ_CACHING).json(envelope(await workspaces.getWorkspace(store, principalOf(req), req.params.workspace_id)));
  };
  const updateWorkspace: Handler<'updateWorkspace'> = async (req, res) => {
    res.json(envelope(await workspaces.renameWorkspace(store, principalOf(req), req.params.workspace_id, req.body.name)));
  };
  const deleteWorkspace: Handler<'deleteWorkspace'> = async (req, res) => {
    await workspaces.deleteWorkspace(store, principalOf(req), req.params.workspace_id);
    res.status(204).end();
  };
  const listWorkspaceMembers: Handler<'listWorkspaceMembers'> = async (req, res) => {
    const page = await workspaces.listMembers(store, principalOf(req), req.params.workspace_id, toListQuery(req.query, 'cursor', 'id'));
    res.set(READ_CACHING).json({ data: page.items, meta: cursorMeta({ ...page, items: page.items.map((member) => ({ id: member.user_id })) }) });
  };
  const updateWorkspaceMember: Handler<'updateWorkspaceMember'> = async (req, res) => {
    res.json(envelope(await workspaces.changeRole(store, principalOf(req), req.params.workspace_id, req.params.user_id, req.body.role)));
  };
  const removeWorkspaceMember: Handler<'removeWorkspaceMember'> = async (req, res) => {
    await workspaces.removeMember(store, principalOf(req), req.params.workspace_id, req.params.user_id);
    res.status(204).end();
  };
  const listInvitations: Handler<'listInvitations'> = async (req, res) => {
    const page = await workspaces.listInvitations(store, principalOf(req), req.params.workspace_id, toListQuery(req.query, 'cursor', '-created_at'));
    res.set(READ_CACHING).json({ data: page.items, meta: cursorMeta(page) });
  };
  const createInvitation: Handler<'createInvitation'> = async (req, res) => {
    const invitation = await workspaces.createInvitation(store, principalOf(req), req.params.workspace_id, req.body);
    res
      .status(201)
      .set(NO_STORE)
      .location(pathTo('getInvitation', { workspace_id: invitation.workspace_id, invitation_id: invitation.id }))
      .json(envelope(invitation));
  };
  const getInvitation: Handler<'getInvitation'> = async (req, res) => {
    res.set(READ_CACHING).json(envelope(await workspaces.getInvitation(store, principalOf(req), req.params.workspace_id, req.params.invitation_id)));
  };
  const revokeInvitation: Handler<'revokeInvitation'> = async (req, res) => {
    await workspaces.revokeInvitation(store, principalOf(req), req.params.workspace_id, req.params.invitation_id);
    res.status(204).end();
  };
  const acceptInvitation: Handler<'acceptInvitation'> = async (req, res) => {
    res.json(envelope(await workspaces.acceptInvitation(store, principalOf(req), req.body.token)));
  };
  return {
    listWorkspaces,
    createWorkspace,
    getWorkspace,
    updateWorkspace,
    deleteWorkspace,
    listWorkspaceMembers,
    updateWorkspaceMember,
    removeWorkspaceMember,
    listInvitations,
    createInvitation,
    getInvitation,
    revokeInvitation,
    acceptInvitation,
  };
}
