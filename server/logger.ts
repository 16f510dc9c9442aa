import { pino } from 'pino';

export type Logger = pino.Logger;

// Containers of submitted data. Request bodies are never passed to the logger on purpose; these paths are the second
// line of defence, for a careless `logger.info({ body })` or an error that carries its body (body-parser does).
const PERSONAL_CONTAINERS = ['body', 'data', 'values', 'fields'];

export interface LoggerOptions {
  /** pino level; `LOG_LEVEL` in production, 'silent' or a stream in tests. */
  level?: string;
  /** Form field names (fullName, phone, ...): their values are censored wherever they appear, one level deep. */
  personalFields?: string[];
  destination?: pino.DestinationStream;
}

/** JSON logs, one object per line, with personal fields censored. */
export function createLogger({
  level = 'info',
  personalFields = [],
  destination,
}: LoggerOptions = {}): Logger {
  const keys = [...new Set([...PERSONAL_CONTAINERS, ...personalFields])];
  const options: pino.LoggerOptions = {
    level,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: keys.flatMap((key) => [key, `*.${key}`]), censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
