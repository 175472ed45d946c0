import { newId, now } from '../data/ids';
import { isForeignKeyViolation } from '../data/database-errors';
import type { Store } from '../data/store';
import { forbidden, userNotFound } from '../errors';
import type { Principal } from './access';
import type { ListQuery, ListResult } from './collection';
import type { Post, PostCreate } from '../model';
import { chargeStoredBytes, postBytes, type Quotas } from './quotas';
import { mayManage } from './users';

/** Any signed-in principal reads posts. */
export async function listPosts(store: Store, userId: string, query: ListQuery): Promise<ListResult<Post>> {
  if (!(await store.users.find(userId))) throw userNotFound();
  return store.posts.list(userId, query);
}

/** Only the author (or an admin) writes a user's posts; what a post stores counts against its author's quota. */
export async function createPost(store: Store, principal: Principal, userId: string, input: PostCreate, quotas: Quotas): Promise<Post> {
  if (!(await store.users.find(userId))) throw userNotFound();
  if (!mayManage(principal, userId)) throw forbidden("Only the user (or an admin) writes the user's posts");
  const timestamp = now();
  const post: Post = {
    id: newId(),
    user_id: userId,
    title: input.title,
    body: input.body ?? '',
    created_at: timestamp,
    updated_at: timestamp,
  };
  try {
    return await store.transaction(async (tx) => {
      const bytes = postBytes(post);
      await tx.posts.insert(post, bytes);
      await chargeStoredBytes(tx, userId, bytes, quotas, userNotFound);
      return post;
    });
  } catch (error) {
    // The user was deleted after the look-up above.
    if (isForeignKeyViolation(error)) throw userNotFound();
    throw error;
  }
}
