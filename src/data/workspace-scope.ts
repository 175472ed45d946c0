import type { Knex } from 'knex';
import { compileIdPages, scopedBy, type IdPages, type ScopeRows } from './collection-query';
import type { Executor } from './compiled-query';
import type { ListQuery, ListResult } from './list-query';
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
const ofMember =
  (db: Knex): ScopeRows =>
  (query, userId) =>
    void query.whereIn('workspace_id', workspacesOfMember(db, userId));

/** Confines a query of a table with `workspace_id` to what `reach` covers. */
export function confineTo(query: Knex.QueryBuilder, db: Executor, reach: WorkspaceReach): Knex.QueryBuilder {
  if (reach.workspaceId !== undefined) return query.where({ workspace_id: reach.workspaceId });
  if (reach.memberId !== undefined) return query.whereIn('workspace_id', workspacesOfMember(db, reach.memberId));
  return query;
}

/**
 * Joins the user's membership of the workspace `workspaceColumn` names and selects their role as
 * `member_role`: an inner join keeps only the rows of their workspaces, a left join every row.
 */
export function withMemberRole(query: Knex.QueryBuilder, workspaceColumn: string, userId: string, join: 'inner' | 'left' = 'inner'): Knex.QueryBuilder {
  const on = (clause: Knex.JoinClause) => clause.on('workspace_members.workspace_id', workspaceColumn).andOnVal('workspace_members.user_id', userId);
  query.select({ member_role: 'workspace_members.role' });
  return join === 'inner' ? query.join('workspace_members', on) : query.leftJoin('workspace_members', on);
}

/** The common pages of a table with `workspace_id` (see compileIdPages), for each reach. */
export interface WorkspacePages {
  run(executor: Executor, query: ListQuery, reach: WorkspaceReach): Promise<ListResult<Record<string, unknown>> | undefined>;
}

export function compileWorkspacePages(db: Knex, table: string, columns: readonly string[]): WorkspacePages {
  const ofMembers: IdPages = compileIdPages(db, table, columns, ofMember(db));
  const ofWorkspace: IdPages = compileIdPages(db, table, columns, scopedBy('workspace_id'));
  return {
    // Without a member (every row), the members' pages run unscoped.
    run: (executor, query, reach) => (reach.workspaceId !== undefined ? ofWorkspace.run(executor, query, reach.workspaceId) : ofMembers.run(executor, query, reach.memberId)),
  };
}
