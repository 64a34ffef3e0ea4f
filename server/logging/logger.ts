import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { openLogFile, type LogFile } from './log-file';

export type Logger = pino.Logger;

/**
 * JSON lines in DATA_DIR/logs/signdesk.log; warnings and errors also on stderr. Logging never
 * takes the process down: a log file that cannot be written (a full disk) drops lines and
 * says so on stderr, and a closed stderr is ignored.
 */
export function createLogger(logsDir: string, level: pino.LevelWithSilent): Logger {
  if (level === 'silent') return pino({ level });
  fs.mkdirSync(logsDir, { recursive: true });
  ignoreStderrErrors();
  const file = openLogFile(path.join(logsDir, 'signdesk.log'), { onTrouble: (message) => writeStderr(`${message}\n`) });
  const streams = pino.multistream([
    { level, stream: file },
    { level: 'warn', stream: { write: writeStderr, end: () => {} } as pino.DestinationStream },
  ]);
  const logger = pino({ level, base: null, timestamp: pino.stdTimeFunctions.isoTime }, streams);
  logFiles.set(logger, file);
  return logger;
}

const logFiles = new WeakMap<Logger, LogFile>();

/**
 * Waits (at most `withinMs`) until the log file holds every line logged so far: a process that
 * exits right after its last line (the server's `closed`) keeps it. pino's own flush does not
 * reach a multistream's streams.
 */
export async function logWritten(logger: Logger, withinMs = 2_000): Promise<void> {
  const file = logFiles.get(logger);
  if (!file) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    file.written(),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, withinMs);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
}

function writeStderr(line: string): boolean {
  try {
    return process.stderr.write(line);
  } catch {
    return true;
  }
}

let isStderrGuarded = false;

/** A parent that went away (EPIPE) must not end the server through an unhandled 'error'. */
function ignoreStderrErrors(): void {
  if (isStderrGuarded) return;
  isStderrGuarded = true;
  process.stderr.on('error', () => {});
}
