import type { Knex } from 'knex';
import type { ScopeRows } from './collection-query';
import type { WorkspaceRole } from '../model';

/**
 * Which rows of a workspace-owned table a read covers: every row (platform admins, service keys),
 * the rows of the workspaces one user is a member of, or one workspace's rows (the caller's
 * membership in it checked before).
 */
export type WorkspaceReach = { memberId?: undefined; workspaceId?: undefined } | { memberId: string; workspaceId?: undefined } | { memberId?: undefined; workspaceId: string };

/** A row found for a caller, with the caller's role in its workspace: null when the caller reaches every workspace. */
export interface Reached<T> {
  item: T;
  role: WorkspaceRole | null;
}

/** The workspaces a user is a member of, as a subquery. */
export const workspacesOfMember = (db: Knex | Knex.Transaction, userId: string): Knex.QueryBuilder =>
  db('workspace_members').select('workspace_id').where('user_id', userId);

/** Confines a query of a table with `workspace_id` to a member's workspaces. */
export const ofMember =
  (db: Knex): ScopeRows =>
  (query, userId) =>
    void query.whereIn('workspace_id', workspacesOfMember(db, userId));

/** The scope value a reach binds, and which compiled pages it takes. */
export function scopeOf(reach: WorkspaceReach): { by: 'member' | 'workspace' | 'none'; value?: string } {
  if (reach.workspaceId !== undefined) return { by: 'workspace', value: reach.workspaceId };
  if (reach.memberId !== undefined) return { by: 'member', value: reach.memberId };
  return { by: 'none' };
}
