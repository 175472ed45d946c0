import type { Knex } from 'knex';
import type { ListQuery, ListResult } from './list-query';
import type { Post, PostSummary } from '../model';
import { newestPerGroup, runListQuery, type ColumnAllowList } from './collection-query';
import type { RowMapper } from './row-mapper';

/** Upper bound of what a post adds as JSON beyond its stored bytes (about 190 bytes of keys, ids, timestamps and punctuation). */
export const POST_FIXED_BYTES = 256;

export interface PostsRepository {
  /** `storedBytes`: what the post stores as JSON (see domain/quotas.ts). */
  insert(post: Post, storedBytes: number): Promise<Post>;
  list(userId: string, query: ListQuery): Promise<ListResult<Post>>;
  /** The newest `perUser` posts of each user as summaries, for embedding; bodies are never read. */
  summariesOf(userIds: string[], perUser: number): Promise<Map<string, PostSummary[]>>;
}

const LISTABLE: ColumnAllowList = { title: 'text', created_at: 'time', updated_at: 'time' };

const SUMMARY_COLUMNS = ['id', 'user_id', 'title', 'created_at', 'updated_at'];

export function createPostsRepository(db: Knex | Knex.Transaction, mapper: RowMapper): PostsRepository {
  return {
    async insert(post, storedBytes) {
      await db('posts').insert({ ...post, stored_bytes: storedBytes });
      return post;
    },
    async list(userId, query) {
      const result = await runListQuery(db('posts').where({ user_id: userId }), query, LISTABLE, { column: 'stored_bytes', fixedBytes: POST_FIXED_BYTES });
      return { ...result, items: result.items.map(mapper.toPost) };
    },
    async summariesOf(userIds, perUser) {
      const rows = await newestPerGroup(db, 'posts', 'user_id', userIds, perUser, SUMMARY_COLUMNS);
      return new Map([...rows].map(([id, group]) => [id, group.map(mapper.toPostSummary)]));
    },
  };
}
