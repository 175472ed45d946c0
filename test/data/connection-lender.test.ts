import { ConnectionLender } from '../../src/data/knex-clients';

/** A pool of numbered connections that records what it gave and got back. */
function fakePool(timeoutMs = 50) {
  let made = 0;
  const log: string[] = [];
  return {
    log,
    take: () => {
      made += 1;
      log.push(`take ${made}`);
      return Promise.resolve({ id: made, open: true });
    },
    giveBack: (connection: unknown) => log.push(`give back ${(connection as { id: number }).id}`),
    timeoutMs,
  };
}

describe('the SQLite connection lender', () => {
  it('when the connection is free, then it is lent at once, the same one each time, taken from the pool only once', async () => {
    const pool = fakePool();
    const lender = new ConnectionLender(pool);
    const first = await lender.acquire();
    lender.release();
    const second = await lender.acquire();
    lender.release();
    expect(second).toBe(first);
    expect(pool.log).toEqual(['take 1']);
    expect(lender.lends(first)).toBe(true);
    expect(lender.lends({ id: 1 })).toBe(false);
  });

  it('when several ask while it is lent, then they get it one at a time, in the order they asked', async () => {
    const lender = new ConnectionLender(fakePool(1000));
    await lender.acquire();
    const order: number[] = [];
    const waiting = [1, 2, 3].map((n) => lender.acquire().then(() => order.push(n)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    lender.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([1]);
    lender.release();
    lender.release();
    await Promise.all(waiting);
    expect(order).toEqual([1, 2, 3]);
  });

  it('when a user waits past the timeout, then it fails with KnexTimeoutError, as with the pool, and the queue goes on without it', async () => {
    const lender = new ConnectionLender(fakePool(30));
    const connection = await lender.acquire();
    const late = lender.acquire();
    await expect(late).rejects.toMatchObject({ name: 'KnexTimeoutError', message: expect.stringContaining('Timeout acquiring a connection') });
    const next = lender.acquire();
    lender.release();
    expect(await next).toBe(connection);
  });

  it('when the kept connection was closed, then it goes back to the pool and a new one is taken', async () => {
    const pool = fakePool();
    const lender = new ConnectionLender(pool);
    const first = (await lender.acquire()) as { open: boolean };
    lender.release();
    first.open = false;
    const second = await lender.acquire();
    expect(second).not.toBe(first);
    expect(pool.log).toEqual(['take 1', 'give back 1', 'take 2']);
  });

  it('when closed while lent, then the connection goes back once its user is done, and later askers go to the pool', async () => {
    const pool = fakePool(1000);
    const lender = new ConnectionLender(pool);
    await lender.acquire();
    const waiter = lender.acquire();
    lender.close();
    expect(await waiter).toEqual({ id: 2, open: true });
    expect(pool.log).toEqual(['take 1', 'take 2']);
    lender.release();
    expect(pool.log).toEqual(['take 1', 'take 2', 'give back 1']);
    await lender.acquire();
    expect(pool.log).toEqual(['take 1', 'take 2', 'give back 1', 'take 3']);
  });

  it('when taking the first connection fails, then the asker gets the error and the next one tries again', async () => {
    let attempts = 0;
    const lender = new ConnectionLender({
      take: () => (++attempts === 1 ? Promise.reject(new Error('cannot open')) : Promise.resolve({ id: attempts, open: true })),
      giveBack: () => undefined,
      timeoutMs: 1000,
    });
    const first = lender.acquire();
    const second = lender.acquire();
    await expect(first).rejects.toThrow('cannot open');
    expect(await second).toEqual({ id: 2, open: true });
  });
});
