import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config';

export type { Logger };

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

export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
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
