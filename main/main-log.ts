import fs from 'node:fs';
import path from 'node:path';

export type MainLog = (message: string, err?: unknown) => void;

/** The shell's own few lines (quit, failures), beside the server's log in DATA_DIR/logs. */
export function createMainLog(file: string): MainLog {
  return (message, err) => {
    const detail = err === undefined ? '' : ` ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.appendFileSync(file, `${new Date().toISOString()} ${message}${detail}\n`);
    } catch {
      // Logging must never take the shell down; stderr is the last resort.
      process.stderr.write(`${message}${detail}\n`);
    }
  };
}
