import { spawn } from 'node:child_process';
import { ROOT } from './electron-builder';

/** `npm run server` or `npm start` as an office types it, in its own process group. */
export type ServerCommand = { url: string; output(): string; stop(): Promise<void> };

export async function startServerCommand(npmArgs: string[], env: Record<string, string>): Promise<ServerCommand> {
  // No display: `npm start` runs the headless server whether or not Electron's binary is here.
  const child = spawn('npm', npmArgs, {
    cwd: ROOT,
    env: { ...process.env, DISPLAY: '', WAYLAND_DISPLAY: '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  // Every writer of the pipes gone (npm and the server it started): all they said has arrived.
  const outputEnded = Promise.all(
    [child.stdout, child.stderr].map((stream) => new Promise((resolve) => stream.once('close', resolve))),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm ${npmArgs.join(' ')} did not start within 120 s:\n${output}`)),
      120_000,
    );
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (\S+) /.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm ${npmArgs.join(' ')} exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    output: () => output,
    stop: async () => {
      const group = -(child.pid as number);
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        process.kill(group, 'SIGTERM');
        await exited;
      }
      // npm may end before the server it started has closed (and let go of DATA_DIR's lock):
      // done when nothing of the process group is left.
      await waitForGroupGone(group);
      await outputEnded;
    },
  };
}

async function waitForGroupGone(group: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      process.kill(group, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`process group ${-group} still runs 60 s after SIGTERM`);
}
