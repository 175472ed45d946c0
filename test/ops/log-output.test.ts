import { spawn } from 'node:child_process';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/**
 * Runs `script` (TypeScript, with `createLogger` in scope) in a process of its own whose standard
 * output is a pipe; answers what reached it, each chunk with the time it arrived, and how it exited.
 */
function runLogging(
  script: string,
): Promise<{ chunks: Array<{ at: number; text: string }>; lines: Array<Record<string, unknown>>; code: number | null; closedAt: number; stderr: string }> {
  const source = `const { createLogger } = require('./src/logger');\n${script}`;
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=commonjs', '-e', source], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const started = Date.now();
  const chunks: Array<{ at: number; text: string }> = [];
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => chunks.push({ at: Date.now() - started, text }));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  return new Promise((resolve) => {
    child.once('close', (code) => {
      const closedAt = Date.now() - started;
      const lines = chunks
        .map((chunk) => chunk.text)
        .join('')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      resolve({ chunks, lines, code, closedAt, stderr });
    });
  });
}

describe('log output on standard output', () => {
  it('when a process logs many lines and exits at once, then every line reaches its output, whole and in order', async () => {
    const { lines, code, chunks } = await runLogging(`
      const logger = createLogger({ logLevel: 'info' });
      for (let n = 1; n <= 5000; n++) logger.info({ n, padding: 'x'.repeat(200) }, 'line');
      process.exit(0);
    `);
    expect(code).toBe(0);
    expect(lines.map((line) => line.n)).toEqual(Array.from({ length: 5000 }, (_, index) => index + 1));
    // Gathered into writes, not one per line.
    expect(chunks.length).toBeLessThan(5000);
  });

  it('when a process throws after logging, then the lines logged before reach its output', async () => {
    const { lines, code, stderr } = await runLogging(`
      const logger = createLogger({ logLevel: 'info' });
      logger.info({ n: 1 }, 'before the crash');
      setTimeout(() => { throw new Error('crash'); }, 10);
    `);
    expect(code).not.toBe(0);
    expect(stderr).toContain('crash');
    expect(lines).toEqual([expect.objectContaining({ n: 1, msg: 'before the crash' })]);
  });

  it('when one line is logged on a quiet process, then it is written as it comes, not held until exit', async () => {
    const { chunks, lines, closedAt } = await runLogging(`
      const logger = createLogger({ logLevel: 'info' });
      logger.info('alone');
      setTimeout(() => process.exit(0), 2000);
    `);
    expect(lines).toEqual([expect.objectContaining({ msg: 'alone' })]);
    expect(chunks).toHaveLength(1);
    // Logged, then 2 s before the exit: the line arrived long before the process ended.
    expect(closedAt - (chunks[0] as { at: number }).at).toBeGreaterThan(1500);
  });

  it('when lines are logged faster than the loop turns, then they are written as they come, not queued in memory', async () => {
    // 20,000 lines of about 300 bytes in one turn of the loop: 6 MB that a writer with one write in
    // flight would hold until the loop came round.
    const { lines, stderr } = await runLogging(`
      const logger = createLogger({ logLevel: 'info' });
      gc();
      const before = process.memoryUsage().heapUsed;
      for (let n = 1; n <= 20000; n++) logger.info({ n, padding: 'x'.repeat(240) }, 'burst');
      gc();
      process.stderr.write(JSON.stringify({ heldBytes: process.memoryUsage().heapUsed - before }));
      process.exit(0);
    `);
    expect(lines).toHaveLength(20000);
    const { heldBytes } = JSON.parse(stderr) as { heldBytes: number };
    expect(heldBytes).toBeLessThan(1_000_000);
  });
});
