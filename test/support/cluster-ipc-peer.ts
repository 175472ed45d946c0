/**
 * The primary's end of src/process/cluster-ipc.ts in a child process of its own (test/ops/cluster-ipc.test.ts):
 * it answers `echo` after the delay the request names, never answers `ignored`, and keeps the
 * shared counters as a cluster primary does.
 */
import { answerIpc, type IpcLink } from '../../src/process/cluster-ipc';
import { loadConfig } from '../../src/config/config';
import { keepSharedCounters } from '../../src/process/shared-counters';

const parent = process as IpcLink;
answerIpc(parent, 'echo', async (body) => {
  const { delayMs, value } = body as { delayMs: number; value: unknown };
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  return value;
});
answerIpc(parent, 'ignored', () => new Promise(() => undefined));
keepSharedCounters(loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'cluster-ipc-peer-secret-of-at-least-32-bytes' })).serve(parent);
parent.send({ ready: true });
