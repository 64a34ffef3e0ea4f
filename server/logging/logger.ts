import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';

export type Logger = pino.Logger;

/** JSON lines in DATA_DIR/logs/signdesk.log; warnings and errors also on stderr. */
export function createLogger(logsDir: string, level: pino.LevelWithSilent): Logger {
  if (level === 'silent') return pino({ level });
  // Opened here, not asynchronously by pino: a process that exits right after start (a port in
  // use, a quick shutdown) would otherwise find the log "not ready" in pino's exit flush and throw.
  fs.mkdirSync(logsDir, { recursive: true });
  const fd = fs.openSync(path.join(logsDir, 'signdesk.log'), 'a');
  const file = pino.destination({ fd, sync: false });
  const streams = pino.multistream([
    { level, stream: file },
    { level: 'warn', stream: process.stderr },
  ]);
  return pino({ level, base: null, timestamp: pino.stdTimeFunctions.isoTime }, streams);
}
