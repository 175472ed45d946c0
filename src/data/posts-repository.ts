import type { Knex } from 'knex';
import type { ListQuery, ListResult } from '../domain/collection';
import type { Post } from '../domain/model';
import { newestPerGroup, runListQuery, type ColumnAllowList } from './collection-query';
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
      const rows = await newestPerGroup(db, 'posts', 'user_id', userIds, perUser);
      return new Map([...rows].map(([id, group]) => [id, group.map(mapper.toPost)]));
    },
  };
}
