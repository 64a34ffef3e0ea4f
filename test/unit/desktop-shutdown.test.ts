import { describe, expect, it } from 'vitest';
import type { HostShutdown } from '../../main/host-client';
import { createQuit, type QuitSteps } from '../../main/shutdown';

function recordSteps(
  stopServer: (timeoutMs: number) => Promise<HostShutdown | undefined>,
  failing: Partial<Record<keyof QuitSteps, boolean>> = {},
) {
  const calls: string[] = [];
  const step = (name: keyof QuitSteps) => () => {
    calls.push(name);
    if (failing[name]) throw new Error(`${name} broke`);
  };
  const steps: QuitSteps = {
    showStopping: step('showStopping'),
    closeWindows: step('closeWindows'),
    stopServer: async (timeoutMs) => {
      calls.push(`stopServer(${timeoutMs})`);
      return stopServer(timeoutMs);
    },
    removeTray: step('removeTray'),
    exit: (code) => void calls.push(`exit(${code})`),
    log: (message) => void calls.push(`log: ${message}`),
  };
  return { calls, steps };
}

describe('the quit sequence', () => {
  it('closes the windows, lets the server drain, removes the tray, then exits', async () => {
    const { calls, steps } = recordSteps(async () => ({ code: 0, isKilled: false }));
    await createQuit(steps, 30_000)();
    expect(calls).toEqual(['showStopping', 'closeWindows', 'stopServer(30000)', 'removeTray', 'exit(0)']);
  });

  it('runs once however often quit is asked for', async () => {
    let release: (result: HostShutdown) => void = () => {};
    let reached: () => void = () => {};
    const isStopping = new Promise<void>((resolve) => (reached = resolve));
    const { calls, steps } = recordSteps(() => {
      reached();
      return new Promise((resolve) => (release = resolve));
    });
    const quit = createQuit(steps, 1_000);
    const first = quit();
    const second = quit();
    await isStopping;
    release({ code: 0, isKilled: false });
    await Promise.all([first, second, quit()]);
    expect(calls.filter((call) => call.startsWith('stopServer'))).toHaveLength(1);
    expect(calls.filter((call) => call.startsWith('exit'))).toEqual(['exit(0)']);
  });

  it('exits non-zero and says so when the server had to be ended', async () => {
    const { calls, steps } = recordSteps(async () => ({ code: null, isKilled: true }));
    await createQuit(steps, 500)();
    expect(calls).toContain('log: quit: the server did not finish within 500 ms and was ended');
    expect(calls.at(-1)).toBe('exit(1)');
  });

  it('still stops the server and exits when a step before it fails', async () => {
    const { calls, steps } = recordSteps(async () => ({ code: 0, isKilled: false }), { closeWindows: true });
    await createQuit(steps)();
    expect(calls).toEqual([
      'showStopping',
      'closeWindows',
      'log: quit: closeWindows failed',
      'stopServer(30000)',
      'removeTray',
      'exit(1)',
    ]);
  });

  it('exits non-zero when stopping the server fails, after removing the tray', async () => {
    const { calls, steps } = recordSteps(async () => {
      throw new Error('channel closed');
    });
    await createQuit(steps)();
    expect(calls.slice(-3)).toEqual(['log: quit: stopServer failed', 'removeTray', 'exit(1)']);
  });

  it('exits cleanly when no server runs (it never started)', async () => {
    const { calls, steps } = recordSteps(async () => undefined);
    await createQuit(steps)();
    expect(calls.at(-1)).toBe('exit(0)');
  });
});
