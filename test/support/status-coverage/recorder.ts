import { appendFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import express from 'express';
import { ROUTE_TABLE } from '../../../src/contract/route-table';
import { pathOfTarget } from '../fuzzer/contract';

/**
 * Status coverage, the recording half: every response an in-process app of the service sends in a
 * jest worker is appended, as one JSON line `{"method","path","status"}`, to a file of its own in
 * the run's directory (`STATUS_COVERAGE_DIR`, made by the global setup). The reporter
 * (reporter.ts) matches the paths to api.yaml's operations when the run is over.
 */
export const RECORD_DIR_ENV = 'STATUS_COVERAGE_DIR';

export interface ResponseRecord {
  method: string;
  /** The request's path, without its query. */
  path: string;
  status: number;
  /** The test file that made the request, relative to the working directory. */
  file: string;
}

type Handle = (this: express.Application, req: IncomingMessage & { originalUrl?: string }, res: ServerResponse, next?: unknown) => unknown;

const FLUSH_AT = 2000;
let pending: string[] = [];
let file: string | undefined;
const testFile = () => path.relative(process.cwd(), expect.getState().testPath ?? '');

/** Writes what was recorded so far (the worker may be ended at any moment after a test file). */
export function flushRecords(): void {
  if (!file || pending.length === 0) return;
  appendFileSync(file, pending.join(''));
  pending = [];
}

/**
 * Records every response of every app `buildApp` makes from now on in this module registry: the
 * apps of `startTestApp` and those tests build themselves. Express copies `application`'s property
 * descriptors onto each app it creates, and calls `app.handle` for every request. `handle` becomes
 * an accessor: reading it gives the recording entry, and an app that sets an entry of its own (the
 * service's skips Express's router) sets what the recording entry calls. The entry recognises the
 * service's apps by the route table buildApp sets (helper servers of the tests are not the
 * service). A response counts when it has been handed to the socket in full (`finish`), with the
 * status it went out with.
 */
export function recordResponses(directory: string): void {
  file = path.join(directory, `${process.pid}.jsonl`);
  const application = express.application as unknown as { handle: Handle; recorded?: true };
  if (application.recorded) return;
  const expressHandle = application.handle;
  const ownHandles = new WeakMap<object, Handle>();
  const seen = new WeakSet<ServerResponse>();
  const recording: Handle = function handle(req, res, next) {
    if (!seen.has(res) && this.get(ROUTE_TABLE)) {
      seen.add(res);
      const method = req.method ?? '';
      const target = req.originalUrl ?? req.url ?? '/';
      res.once('finish', () => {
        const record: ResponseRecord = { method, path: pathOfTarget(target), status: res.statusCode, file: testFile() };
        pending.push(`${JSON.stringify(record)}\n`);
        if (pending.length >= FLUSH_AT) flushRecords();
      });
    }
    return (ownHandles.get(this) ?? expressHandle).call(this, req, res, next);
  };
  Object.defineProperty(application, 'handle', {
    configurable: true,
    enumerable: true,
    get: () => recording,
    set(this: object, own: Handle) {
      ownHandles.set(this, own);
    },
  });
  application.recorded = true;
}

/**
 * Records an answer the app never saw: one the service's HTTP server wrote itself, to a request
 * Node's parser refused (src/http/http-server.ts). A test that produces one reports it here.
 */
export function recordServerAnswer(method: string, target: string, status: number): void {
  if (!file) return;
  const record: ResponseRecord = { method, path: pathOfTarget(target), status, file: testFile() };
  pending.push(`${JSON.stringify(record)}\n`);
}
