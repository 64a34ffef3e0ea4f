import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { connectHost, type HostChannel, type HostClient } from '../../main/host-client';
import type { THostRequest } from '../../shared/host-messages';

export const HOST_SOURCE_ENTRY = path.resolve(import.meta.dirname, '../../server/host.ts');

export type ForkedHost = {
  child: ChildProcess;
  client: HostClient;
  /** stdout and stderr of the process so far (for failure messages). */
  output(): string;
};

/**
 * Starts the server host the way the desktop shell does, with Node's fork standing in for
 * Electron's utilityProcess (the one part that cannot run here): the same entry, the same
 * messages, the same client code as main/.
 */
export function forkHost(options: {
  entry?: string;
  env: Record<string, string>;
  loader?: 'tsx' | 'node';
  readyTimeoutMs?: number;
}): ForkedHost {
  const entry = options.entry ?? HOST_SOURCE_ENTRY;
  const loader = options.loader ?? (entry.endsWith('.ts') ? 'tsx' : 'node');
  const child = fork(entry, [], {
    execArgv: loader === 'tsx' ? ['--import', 'tsx'] : [],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const client = connectHost(forkChannel(child), { readyTimeoutMs: options.readyTimeoutMs ?? 30_000 });
  return { child, client, output: () => output };
}

export function forkChannel(child: ChildProcess): HostChannel {
  return {
    post: (request: THostRequest) => {
      if (child.connected) child.send(request);
    },
    onMessage: (listener) => child.on('message', listener),
    onExit: (listener) => child.once('exit', (code) => listener(code)),
    kill: () => child.kill('SIGKILL'),
  };
}

/** Whether the server still takes connections (refused once it has stopped listening). */
export async function isListening(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/api/openapi.json`);
    return true;
  } catch {
    return false;
  }
}
