import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, clipboard, dialog, ipcMain, session, shell } from 'electron';
import { resolveAppFiles, resolveDataDir } from './app-paths';
import { describeServerFailure, failureChoiceOf } from './failure';
import { createIpcHandlers, registerIpcHandlers } from './ipc';
import { createMainLog } from './main-log';
import { choosePort, isPortFree } from './port';
import { registerSessionPolicy, registerWebContentsHardening } from './security';
import { startServerProcess } from './server-process';
import { createServerEnv } from './server-env';
import { createSupervisor } from './server-supervisor';
import { createQuit } from './shutdown';
import { createTray, type ShellTray } from './tray';
import { apiAddressOf } from './tray-status';
import { createMainWindow } from './window';
import { chooseWindowUrl } from './window-options';

/**
 * The desktop shell's boot steps, in order. The decisions live in the modules they call (pure
 * functions with unit tests); this file only wires Electron to them.
 */

// 1. One SignDesk per user: a second launch shows the running one's window.
if (!app.requestSingleInstanceLock()) {
  app.exit(0);
} else {
  boot();
}

function boot(): void {
  // 2. Paths: the user-data folder is the server's DATA_DIR.
  const files = resolveAppFiles(path.dirname(fileURLToPath(import.meta.url)));
  const dataDir = resolveDataDir({ env: process.env, platform: process.platform, home: os.homedir() });
  app.setPath('userData', dataDir);
  const log = createMainLog(path.join(dataDir, 'logs', 'desktop.log'));

  // 3. Security, before any page exists: sandbox everywhere, one hardening module.
  let appOrigin: string | undefined;
  const openExternal = (url: string) =>
    void shell.openExternal(url).catch((err: unknown) => log('openExternal failed', err));
  const securityDeps = { appOrigin: () => appOrigin, openExternal };
  app.enableSandbox();
  registerWebContentsHardening(app, securityDeps);

  let isQuitting = false;
  let tray: ShellTray | undefined;
  const window = createMainWindow(
    files,
    () => isQuitting,
    () => supervisor.windowUrl(),
  );

  // 4. The server, in a utility process, supervised.
  const supervisor = createSupervisor({
    dataDir,
    env: createServerEnv(process.env, { isPackaged: app.isPackaged }),
    choosePort: () => choosePort(process.env, isPortFree),
    openChannel: (env) =>
      startServerProcess({
        hostEntry: files.hostEntry,
        env,
        outputLog: path.join(dataDir, 'logs', 'server-output.log'),
      }),
    onState: (state) => tray?.show(state),
    onReady: (ready, windowUrl) => {
      appOrigin = new URL(ready.url).origin;
      window.open(windowUrl);
    },
    askAfterFailure: async (failure) =>
      failureChoiceOf((await dialog.showMessageBox(describeServerFailure(failure))).response),
    openLogsFolder: (dir) => void shell.openPath(dir),
    onGiveUp: () => void quit(),
    chooseWindowUrl,
    log,
  });

  // 5. Quit: windows, then the server's drain, then exit.
  const quit = createQuit({
    showStopping: () => tray?.show({ phase: 'stopping' }),
    closeWindows: () => {
      isQuitting = true;
      window.close();
    },
    stopServer: (timeoutMs) => supervisor.stop(timeoutMs),
    removeTray: () => tray?.destroy(),
    exit: (code) => app.exit(code),
    log,
  });
  app.on('before-quit', (event) => {
    event.preventDefault();
    void quit();
  });
  // The server keeps serving from the tray when the window is closed.
  app.on('window-all-closed', () => undefined);
  app.on('second-instance', () => window.show());
  app.on('activate', () => window.show());

  void app.whenReady().then(async () => {
    // 6. Session policy, IPC, tray, then the server and the window.
    registerSessionPolicy(session.defaultSession, securityDeps);
    const copyApiAddress = async () => {
      const address = apiAddressOf(await supervisor.status());
      clipboard.writeText(address);
      return address;
    };
    const openLogsFolder = async () => {
      await shell.openPath(supervisor.logsDir());
    };
    registerIpcHandlers(
      ipcMain,
      createIpcHandlers({ getStatus: () => supervisor.status(), copyApiAddress, openLogsFolder }, () => appOrigin),
    );
    tray = createTray(files.trayIcon, {
      open: () => window.show(),
      copyApiAddress: () => void copyApiAddress().catch((err: unknown) => log('copy API address failed', err)),
      openLogsFolder: () => void openLogsFolder(),
      quit: () => void quit(),
    });
    await supervisor.start();
  });
}
