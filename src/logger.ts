import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * Fields that may carry credentials: never written to the log. Headers are logged by the request
 * log alone, which names credential headers without their values (src/http/observability.ts).
 */
export const REDACTED_PATHS = [
  '*.password',
  '*.token',
  '*.access_token',
  '*.refresh_token',
  '*.id_token',
  '*.client_secret',
  '*.clientSecret',
  '*.code_verifier',
];

/**
 * Waiting lines are written once they are this long (in characters). Log lines are nearly all
 * ASCII and well under this, so a write stays under a pipe's atomic 4 KiB and cluster workers
 * sharing one pipe do not interleave their lines; only a write of longer lines could be split.
 */
export const LOG_WRITE_LENGTH = 2048;

let standardOutput: DestinationStream | undefined;

/**
 * The process's standard output, shared by its loggers. Its writes are synchronous, as Node's own
 * are to files and pipes: pino's default writer keeps one write of at most 16 KB in flight and
 * queues the rest, and under sustained load, where the loop turns a few hundred times a second,
 * the queue grew by megabytes a second (a read load's resident size rose 23 MB in 15 s, and would
 * have gone on). The lines of one turn of the event loop are written together as it ends, sooner
 * once they reach LOG_WRITE_LENGTH, and what waits is written as the process exits (a crash
 * included): a quiet process writes each line as it comes, a busy one a couple of KB at a time.
 */
function standardOutputDestination(): DestinationStream {
  if (standardOutput) return standardOutput;
  const output = pino.destination({ dest: 1, sync: true });
  let waiting = '';
  let scheduled = false;
  const writeWaiting = () => {
    scheduled = false;
    if (waiting === '') return;
    const lines = waiting;
    waiting = '';
    output.write(lines);
  };
  process.once('exit', () => {
    try {
      writeWaiting();
    } catch {
      // Standard output is gone (a closed pipe): nothing can be written anywhere.
    }
  });
  standardOutput = {
    write(line: string) {
      waiting += line;
      if (waiting.length >= LOG_WRITE_LENGTH) writeWaiting();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(writeWaiting);
      }
    },
  };
  return standardOutput;
}

export function createLogger(config: { logLevel: LogLevel }, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.logLevel,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? standardOutputDestination(),
  );
}
