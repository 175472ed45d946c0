import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Options } from 'express-rate-limit';
import { createIpcCaller, IpcUnavailableError, type IpcLink } from '../../src/process/cluster-ipc';
import { connectSharedCounters } from '../../src/process/shared-counters';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** Keeps this process's event loop busy, as a cold worker compiling its validators does. */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('requests over the IPC channel of a cluster (a real child process at the other end)', () => {
  let peer: ChildProcess;

  beforeAll(async () => {
    peer = fork(path.join(REPO_ROOT, 'test/support/cluster-ipc-peer.ts'), [], { cwd: REPO_ROOT, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    await new Promise<void>((resolve) => peer.on('message', (message) => (message as { ready?: boolean }).ready && resolve()));
  }, 30_000);
  afterAll(() => {
    peer.kill();
  });

  it('when the answer came while this process was busy past the timeout, then it is taken, not reported missing', async () => {
    const echo = createIpcCaller<{ delayMs: number; value: string }, string>(peer as IpcLink, 'echo', 200);
    const answer = echo({ delayMs: 0, value: 'counted' });
    // The answer arrives within a few milliseconds; the timer has long expired when the loop turns.
    block(600);
    await expect(answer).resolves.toBe('counted');
  });

  it('when no answer comes, then the call fails with IpcUnavailableError after its timeout', async () => {
    const ignored = createIpcCaller<null, unknown>(peer as IpcLink, 'ignored', 200);
    const started = performance.now();
    await expect(ignored(null)).rejects.toBeInstanceOf(IpcUnavailableError);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('when answers come out of order, then each call gets its own', async () => {
    const echo = createIpcCaller<{ delayMs: number; value: number }, number>(peer as IpcLink, 'echo', 2000);
    expect(await Promise.all([300, 0, 150].map((delayMs, value) => echo({ delayMs, value })))).toEqual([0, 1, 2]);
  });

  it('when many increments of one key arrive together, then the primary gives each its own count: 1 to N, none twice', async () => {
    const store = connectSharedCounters(peer as IpcLink).rateLimitStore('api');
    store.init?.({ windowMs: 60_000 } as Options);
    const counts = await Promise.all(Array.from({ length: 50 }, () => store.increment('203.0.113.9')));
    expect(counts.map((count) => count.totalHits).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(counts.every((count) => (count.resetTime?.getTime() ?? 0) > Date.now())).toBe(true);
  });

  it('when a count is read through the primary, then every process reads the same count, and reading counts nothing', async () => {
    const first = connectSharedCounters(peer as IpcLink).rateLimitStore('root');
    const second = connectSharedCounters(peer as IpcLink).rateLimitStore('root');
    for (const store of [first, second]) store.init?.({ windowMs: 60_000 } as Options);
    expect(await second.get?.('203.0.113.10')).toBeUndefined();
    for (let i = 0; i < 3; i++) await first.increment('203.0.113.10');
    const read = await second.get?.('203.0.113.10');
    expect(read?.totalHits).toBe(3);
    expect(read?.resetTime?.getTime()).toBeGreaterThan(Date.now());
    expect((await second.get?.('203.0.113.10'))?.totalHits).toBe(3);
    expect((await second.increment('203.0.113.10')).totalHits).toBe(4);
  });

  it('when sign-in failures are counted through the primary, then its budget holds for every process asking', async () => {
    const { signInThrottle } = connectSharedCounters(peer as IpcLink);
    const now = Date.now();
    for (let failure = 0; failure < 5; failure++) {
      expect(await signInThrottle.reserve('client:198.51.100.4', `account:${failure}`, now)).toBe('reserved');
      await signInThrottle.settle('client:198.51.100.4', `account:${failure}`, 'failed', now);
    }
    expect(await signInThrottle.reserve('client:198.51.100.4', 'account:next', now)).toBeGreaterThan(0);
  });

  it('when failures without a client key (an agent key\'s grant) go through the primary, then they count against their account alone, never against a shared key', async () => {
    const { signInThrottle } = connectSharedCounters(peer as IpcLink);
    const now = Date.now();
    for (let failure = 0; failure < 8; failure++) {
      const account = `account:agent-key:${failure}`;
      expect(await signInThrottle.reserve(undefined, account, now)).toBe('reserved');
      await signInThrottle.settle(undefined, account, 'failed', now);
    }
    expect(await signInThrottle.reserve('client:198.51.100.8', 'account:owner', now)).toBe('reserved');
    expect(await signInThrottle.reserve('client:undefined', 'account:someone', now)).toBe('reserved');
  });

  it('when a client that signed in is remembered through the primary, then every process recalls it, and no other', async () => {
    const first = connectSharedCounters(peer as IpcLink).signInThrottle;
    const second = connectSharedCounters(peer as IpcLink).signInThrottle;
    const now = Date.now();
    expect(await second.recalls('known:owner:198.51.100.5', now)).toBe(false);
    await first.remember('known:owner:198.51.100.5', now);
    expect(await second.recalls('known:owner:198.51.100.5', now)).toBe(true);
    expect(await second.recalls('known:owner:198.51.100.6', now)).toBe(false);
  });
});
