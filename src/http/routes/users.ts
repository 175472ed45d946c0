import { Router } from 'express';
import type { Store } from '../../data/store';
import { signUp } from '../../domain/users';
import { forbidden } from '../../errors';
import { principalOf } from '../authenticate';
import { envelope } from '../envelope';
import type { Handler } from '../typed-handler';

export function userRoutes(store: Store): Router {
  const create: Handler<'signUp'> = async (req, res) => {
    const user = await signUp(store, req.body);
    res.status(201).location(`/api/v1/users/${user.id}`).json(envelope(user));
  };
  const me: Handler<'getMe'> = (req, res) => {
    const principal = principalOf(req);
    if (principal.kind !== 'user') throw forbidden('An API key is a service principal, not a user');
    res.json(envelope(principal.user));
  };
  return Router().post('/api/v1/users', create).get('/api/v1/me', me);
}
