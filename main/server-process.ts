import fs from 'node:fs';
import path from 'node:path';
import { utilityProcess } from 'electron';
import type { HostChannel } from './host-client';

export type ServerProcessOptions = {
  hostEntry: string;
  env: Record<string, string>;
  /** stdout and stderr of the server process (what happens before its own log is open). */
  outputLog: string;
};

/**
 * The server in an Electron utility process: a Node child, so SQLite and PDF work never block
 * the window. This adapter is the only code that differs from the tests, which fork the same
 * entry with Node.
 */
export function startServerProcess(options: ServerProcessOptions): HostChannel {
  fs.mkdirSync(path.dirname(options.outputLog), { recursive: true });
  const output = fs.createWriteStream(options.outputLog, { flags: 'a' });
  const child = utilityProcess.fork(options.hostEntry, [], {
    env: options.env,
    serviceName: 'SignDesk server',
    stdio: 'pipe',
    execArgv: ['--enable-source-maps'],
  });
  child.stdout?.pipe(output, { end: false });
  child.stderr?.pipe(output, { end: false });
  let hasExited = false;
  child.once('exit', () => {
    hasExited = true;
    output.end();
  });
  return {
    post: (request) => {
      if (!hasExited) child.postMessage(request);
    },
    onMessage: (listener) => child.on('message', listener),
    onExit: (listener) => child.once('exit', (code) => listener(code)),
    kill: () => {
      if (!hasExited) child.kill();
    },
  };
}
