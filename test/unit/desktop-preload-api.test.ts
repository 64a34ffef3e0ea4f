import { describe, expect, it } from 'vitest';
import { createIpcHandlers, type DesktopActions } from '../../main/ipc';
import { createDesktopApi, DESKTOP_API_NAME, IPC_CHANNELS } from '../../shared/ipc';

const STATUS = {
  url: 'http://127.0.0.1:8750',
  baseUrl: 'http://127.0.0.1:8750',
  queuedDeliveries: 1,
  outboxPending: 2,
};

describe("the preload's API", () => {
  it('is one frozen object with a fixed list of calls that take no arguments', () => {
    const api = createDesktopApi(async () => undefined);
    expect(DESKTOP_API_NAME).toBe('signdesk');
    expect(Object.keys(api).sort()).toEqual(['copyApiAddress', 'getStatus', 'isDesktop', 'openLogsFolder']);
    expect(Object.isFrozen(api)).toBe(true);
    expect(api.isDesktop).toBe(true);
    for (const call of ['getStatus', 'copyApiAddress', 'openLogsFolder'] as const) expect(api[call]).toHaveLength(0);
  });

  it('invokes only its own namespaced channels, passing nothing from the page', async () => {
    const calls: unknown[][] = [];
    const api = createDesktopApi(async (...args: unknown[]) => {
      calls.push(args);
      return args[0] === IPC_CHANNELS.getStatus ? STATUS : 'http://127.0.0.1:8750/api';
    });
    // Arguments a page might try to smuggle through are dropped.
    await (api.getStatus as (...args: unknown[]) => Promise<unknown>)('/etc/passwd');
    await api.copyApiAddress();
    await (api.openLogsFolder as (...args: unknown[]) => Promise<unknown>)('C:\\Windows');
    expect(calls).toEqual([[IPC_CHANNELS.getStatus], [IPC_CHANNELS.copyApiAddress], [IPC_CHANNELS.openLogsFolder]]);
    const channels = Object.values(IPC_CHANNELS);
    expect(new Set(channels).size).toBe(channels.length);
    for (const channel of channels) expect(channel).toMatch(/^signdesk:[a-z-]+$/);
  });

  it('has a handler in main for exactly its channels, refusing callers outside the app', async () => {
    const done: string[] = [];
    const actions: DesktopActions = {
      getStatus: async () => (done.push('getStatus'), STATUS),
      copyApiAddress: async () => (done.push('copyApiAddress'), 'http://127.0.0.1:8750/api'),
      openLogsFolder: async () => void done.push('openLogsFolder'),
    };
    const handlers = createIpcHandlers(actions, () => 'http://127.0.0.1:8750');
    expect([...handlers.keys()].sort()).toEqual(Object.values(IPC_CHANNELS).sort());

    const getStatus = handlers.get(IPC_CHANNELS.getStatus)!;
    await expect(getStatus('https://evil.example/')).rejects.toThrow(/not a SignDesk page/);
    await expect(getStatus(undefined)).rejects.toThrow(/not a SignDesk page/);
    await expect(handlers.get(IPC_CHANNELS.openLogsFolder)!('http://127.0.0.1:9999/admin')).rejects.toThrow();
    expect(done).toEqual([]);

    await expect(getStatus('http://127.0.0.1:8750/admin')).resolves.toEqual(STATUS);
    expect(done).toEqual(['getStatus']);
  });

  it('refuses every caller while the server has no origin yet', async () => {
    const handlers = createIpcHandlers(
      { getStatus: async () => STATUS, copyApiAddress: async () => '', openLogsFolder: async () => undefined },
      () => undefined,
    );
    await expect(handlers.get(IPC_CHANNELS.getStatus)!('http://127.0.0.1:8750/admin')).rejects.toThrow();
  });
});
