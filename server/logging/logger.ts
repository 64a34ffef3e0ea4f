import path from 'node:path';
import pino from 'pino';

export type Logger = pino.Logger;

/** JSON lines in DATA_DIR/logs/signdesk.log; warnings and errors also on stderr. */
export function createLogger(logsDir: string, level: pino.LevelWithSilent): Logger {
  if (level === 'silent') return pino({ level });
  const file = pino.destination({ dest: path.join(logsDir, 'signdesk.log'), mkdir: true, sync: false });
  const streams = pino.multistream([
    { level, stream: file },
    { level: 'warn', stream: process.stderr },
  ]);
  return pino({ level, base: null, timestamp: pino.stdTimeFunctions.isoTime }, streams);
}
