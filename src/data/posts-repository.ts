import type { Knex } from 'knex';
import type { ListQuery, ListResult } from '../domain/collection';
import type { Post } from '../domain/model';
import { runListQuery, type ColumnAllowList } from './collection-query';
import type { RowMapper } from './row-mapper';

export interface PostsRepository {
  insert(post: Post): Promise<Post>;
  list(userId: string, query: ListQuery): Promise<ListResult<Post>>;
  /** The newest `perUser` posts of each user, for embedding. */
  newestOf(userIds: string[], perUser: number): Promise<Map<string, Post[]>>;
}

const LISTABLE: ColumnAllowList = { title: 'text', created_at: 'time', updated_at: 'time' };

export function createPostsRepository(db: Knex | Knex.Transaction, mapper: RowMapper): PostsRepository {
  return {
    async insert(post) {
      await db('posts').insert(post);
      return post;
    },
    async list(userId, query) {
      const result = await runListQuery(db('posts').where({ user_id: userId }), query, LISTABLE);
      return { ...result, items: result.items.map(mapper.toPost) };
    },
    async newestOf(userIds, perUser) {
      const byUser = new Map<string, Post[]>(userIds.map((id) => [id, []]));
      if (userIds.length === 0) return byUser;
      const ranked = db('posts')
        .select('*', db.raw('row_number() over (partition by user_id order by id desc) as position'))
        .whereIn('user_id', userIds);
      const rows = await db.select('*').from(ranked.as('ranked')).where('position', '<=', perUser).orderBy('id', 'desc');
      for (const row of rows) byUser.get(String(row.user_id))?.push(mapper.toPost(row));
      return byUser;
    },
  };
}
