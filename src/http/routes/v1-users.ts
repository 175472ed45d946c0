import type { PasswordChecks } from '../../auth/password-sign-in';
import type { ServiceLimits } from '../../config/config';
import type { Store } from '../../data/store';
import { createPost, listPosts } from '../../domain/posts';
import * as users from '../../domain/users';
import type { User } from '../../model';
import { principalOf, userOf } from '../authenticate';
import { ifMatch, sendItem, sendPage, tagWrite } from '../caching';
import { cursorMeta, pageMeta, pickFields, toListQuery } from '../collection-params';
import { envelope } from '../envelope';
import type { OperationHandlers, PathTo } from '../operations';
import { clientKeyOf } from '../rate-limit';
import type { Handler } from '../typed-handler';

/** Users (page-numbered) and their posts (cursor), on the conventions surface. */
export function v1UserHandlers(store: Store, limits: ServiceLimits, passwords: PasswordChecks, pathTo: PathTo): Pick<OperationHandlers, 'listUsers' | 'signUp' | 'getUser' | 'replaceUser' | 'updateUser' | 'deleteUser' | 'listPosts' | 'createPost' | 'getMe'> {
  const withPosts = async (list: User[], include: string | undefined) => {
    if (include !== 'posts') return list;
    const embedded = await users.embedPosts(store, list);
    return list.map((user) => ({ ...user, posts: embedded.get(user.id) ?? [] }));
  };

  const list: Handler<'listUsers'> = async (req, res) => {
    const { fields, include } = req.query;
    const query = toListQuery(req.query, 'page', 'created_at');
    const page = await users.listUsers(store, principalOf(req), query);
    const data = (await withPosts(page.items, include)).map((user) => pickFields(user, fields, include));
    const body = { data, meta: pageMeta(page, query) };
    sendPage(res, body, page.items, { embeds: include });
  };
  const signUp: Handler<'signUp'> = async (req, res) => {
    const user = await users.signUp(store, req.body);
    tagWrite(res, user).status(201).location(pathTo('getUser', { user_id: user.id })).json(envelope(user));
  };
  const read: Handler<'getUser'> = async (req, res) => {
    const { fields, include } = req.query;
    const user = await users.getUser(store, principalOf(req), req.params.user_id);
    const [shaped] = await withPosts([user], include);
    const data = pickFields(shaped ?? user, fields, include);
    sendItem(res, user, envelope(data), fields || include ? data : undefined, include);
  };
  const replace: Handler<'replaceUser'> = async (req, res) => {
    const user = await users.replaceUser(store, principalOf(req), req.params.user_id, req.body, passwords.reauthenticate(clientKeyOf(req)), ifMatch<User>(req.get('if-match')));
    tagWrite(res, user).json(envelope(user));
  };
  const update: Handler<'updateUser'> = async (req, res) => {
    const user = await users.updateUser(store, principalOf(req), req.params.user_id, req.body, passwords.reauthenticate(clientKeyOf(req)), ifMatch<User>(req.get('if-match')));
    tagWrite(res, user).json(envelope(user));
  };
  const remove: Handler<'deleteUser'> = async (req, res) => {
    await users.deleteUser(store, principalOf(req), req.params.user_id, ifMatch<User>(req.get('if-match')));
    res.status(204).end();
  };
  const me: Handler<'getMe'> = (req, res) => {
    const { user } = userOf(req);
    sendItem(res, user, envelope(user));
  };

  const posts: Handler<'listPosts'> = async (req, res) => {
    const page = await listPosts(store, req.params.user_id, toListQuery(req.query, 'cursor', '-created_at', limits.maxResponseBytes));
    const body = { data: page.items.map((post) => pickFields(post, req.query.fields)), meta: cursorMeta(page) };
    sendPage(res, body, page.items);
  };
  const writePost: Handler<'createPost'> = async (req, res) => {
    const post = await createPost(store, principalOf(req), req.params.user_id, req.body, limits.quotas);
    tagWrite(res, post).status(201).json(envelope(post));
  };

  return { listUsers: list, signUp, getUser: read, replaceUser: replace, updateUser: update, deleteUser: remove, listPosts: posts, createPost: writePost, getMe: me };
}
