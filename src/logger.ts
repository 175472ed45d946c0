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

export function createLogger(config: { logLevel: LogLevel }, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.logLevel,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}
