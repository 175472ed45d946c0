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

/** Lines are written once this many bytes wait: under a pipe's atomic write size (4 KiB) with a line to spare, so the lines of cluster workers sharing one pipe never interleave. */
export const LOG_WRITE_BYTES = 2048;
/** How long a line may wait for others before it is written anyway. */
export const LOG_FLUSH_MS = 250;

let standardOutput: ReturnType<typeof pino.destination> | undefined;

/**
 * The process's standard output, shared by its loggers. Its writes are synchronous, as Node's own
 * are to files and pipes: pino's default writer keeps one write of at most 16 KB in flight and
 * queues the rest, and under sustained load, where the loop turns a few hundred times a second,
 * the queue grew by megabytes a second (a read's resident size rose 23 MB in 15 s, and would go on).
 * Lines are gathered into writes of about LOG_WRITE_BYTES, at least every LOG_FLUSH_MS, and what
 * waits is written as the process exits.
 */
function standardOutputDestination(): ReturnType<typeof pino.destination> {
  if (standardOutput) return standardOutput;
  const destination = pino.destination({ dest: 1, sync: true, minLength: LOG_WRITE_BYTES, periodicFlush: LOG_FLUSH_MS });
  process.once('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // Standard output is gone (a closed pipe): nothing can be written anywhere.
    }
  });
  standardOutput = destination;
  return destination;
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
