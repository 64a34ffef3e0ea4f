import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveAppFiles, resolveDataDir } from '../../main/app-paths';
import { describeServerFailure, failureChoiceOf } from '../../main/failure';
import { choosePort, DEFAULT_PORT, isPortFree } from '../../main/port';
import { createServerEnv } from '../../main/server-env';
import { defaultDataDir, loadConfig } from '../../server/config/config';

describe("the desktop app's data folder", () => {
  const home = os.homedir();
  it.each([
    ['linux', {}],
    ['linux', { XDG_DATA_HOME: '/srv/xdg' }],
    ['linux', { XDG_DATA_HOME: '' }],
    ['win32', { APPDATA: '/c/Users/office/AppData/Roaming' }],
    ['win32', { APPDATA: '' }],
    ['darwin', {}],
  ] as const)('is the folder the headless server and the CLI use by default (%s %j)', (platform, env) => {
    expect(resolveDataDir({ env, platform, home })).toBe(defaultDataDir(platform, env, home));
  });

  it('takes an empty XDG_DATA_HOME as unset, in the server, the CLI and the shell alike', () => {
    const expected = path.join(home, '.local', 'share', 'SignDesk');
    expect(defaultDataDir('linux', { XDG_DATA_HOME: '' }, home)).toBe(expected);
    expect(resolveDataDir({ env: { XDG_DATA_HOME: '', DATA_DIR: '' }, platform: 'linux', home })).toBe(expected);
    if (process.platform === 'linux') expect(loadConfig({ XDG_DATA_HOME: '', DATA_DIR: '' }).dataDir).toBe(expected);
    expect(defaultDataDir('win32', { APPDATA: '' }, '/home/o')).toBe(
      path.join('/home/o', 'AppData', 'Roaming', 'SignDesk'),
    );
  });

  it('is DATA_DIR when set', () => {
    expect(resolveDataDir({ env: { DATA_DIR: 'relative/data' }, platform: 'linux', home })).toBe(
      path.resolve('relative/data'),
    );
    expect(loadConfig({ DATA_DIR: 'relative/data' }).dataDir).toBe(path.resolve('relative/data'));
  });

  it('finds the bundled server, preload and icons beside the bundled main', () => {
    expect(resolveAppFiles('/opt/SignDesk/resources/app.asar/dist/main')).toEqual({
      hostEntry: '/opt/SignDesk/resources/app.asar/dist/server/host.cjs',
      preload: '/opt/SignDesk/resources/app.asar/dist/main/preload.cjs',
      windowIcon: '/opt/SignDesk/resources/app.asar/dist/main/assets/icon.png',
      trayIcon: '/opt/SignDesk/resources/app.asar/dist/main/assets/tray.png',
    });
  });
});

describe("the desktop app's port", () => {
  const servers: net.Server[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) server.close();
  });
  const occupy = async (): Promise<number> => {
    const server = net.createServer();
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as net.AddressInfo).port;
  };

  it("prefers the server's own default port", () => {
    expect(DEFAULT_PORT).toBe(loadConfig({}).port);
  });

  it('uses PORT as configured, without probing', async () => {
    const probed: number[] = [];
    const isFree = async (_host: string, port: number) => (probed.push(port), false);
    expect(await choosePort({ PORT: '9123' }, isFree)).toEqual({ port: '9123', reason: 'configured' });
    expect(probed).toEqual([]);
  });

  it('takes 8750 when free and a free port from the OS when not', async () => {
    expect(await choosePort({}, async () => true)).toEqual({ port: '8750', reason: 'default' });
    expect(await choosePort({ HOST: '127.0.0.1' }, async () => false)).toEqual({ port: '0', reason: 'free' });
  });

  it('probes on the configured host', async () => {
    const hosts: string[] = [];
    await choosePort({ HOST: '0.0.0.0' }, async (host) => (hosts.push(host), true));
    expect(hosts).toEqual(['0.0.0.0']);
  });

  it('sees a port held by another program as taken, and a released one as free', async () => {
    const port = await occupy();
    expect(await isPortFree('127.0.0.1', port)).toBe(false);
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    expect(await isPortFree('127.0.0.1', port)).toBe(true);
  });
});

describe('the server failure dialog', () => {
  it('says what happened, why, and where the logs are', () => {
    const dialog = describeServerFailure({
      kind: 'start',
      message: 'The port is already in use.',
      logsDir: '/data/logs',
    });
    expect(dialog.message).toBe('The SignDesk server could not start.');
    expect(dialog.detail).toContain('The port is already in use.');
    expect(dialog.detail).toContain('The logs are in /data/logs');
    expect(dialog.buttons).toEqual(['Restart the server', 'Open the logs folder', 'Quit SignDesk']);
  });

  it('explains a crash without a message by its exit', () => {
    expect(
      describeServerFailure({ kind: 'crash', message: undefined, code: null, logsDir: '/d/logs' }).detail,
    ).toContain('ended by the system');
    expect(describeServerFailure({ kind: 'crash', message: undefined, code: 3, logsDir: null }).detail).toMatch(
      /exit.*code 3[\s\S]*No log folder/,
    );
  });

  it('maps the buttons to choices, closing the dialog meaning quit', () => {
    expect([0, 1, 2, -1, 7].map(failureChoiceOf)).toEqual(['restart', 'open-logs', 'quit', 'quit', 'quit']);
  });
});

describe("the server process's environment", () => {
  it("passes the office's configuration through and drops Node's switches", () => {
    const env = createServerEnv(
      {
        PORT: '9000',
        SMTP_URL: 'smtp://mail.office.example',
        NODE_OPTIONS: '--require /tmp/evil.js',
        ELECTRON_RUN_AS_NODE: '1',
        EMPTY: undefined,
      },
      { isPackaged: true },
    );
    expect(env).toEqual({ PORT: '9000', SMTP_URL: 'smtp://mail.office.example' });
  });

  it('honours the development SQLite addon only outside a package', () => {
    const env = { SIGNDESK_SQLITE_BINDING: '/checkout/node_modules/.cache/better_sqlite3.node' };
    expect(createServerEnv(env, { isPackaged: false })).toEqual(env);
    expect(createServerEnv(env, { isPackaged: true })).toEqual({});
  });
});
