import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
  }
}

/** Accepts the caller's X-Request-ID when it is short and safe to log, else makes one; always echoes it. */
export function assignRequestId(req: Request, res: Response): void {
  const offered = req.headers['x-request-id'];
  req.id = typeof offered === 'string' && SAFE_REQUEST_ID.test(offered) ? offered : randomUUID();
  res.setHeader('X-Request-ID', req.id);
}
