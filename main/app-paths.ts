import path from 'node:path';

export type DataDirInput = {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  home: string;
  /** Electron's `app.getPath('appData')`. */
  appData: string;
};

/**
 * The app's user-data folder, which is also the server's DATA_DIR: DATA_DIR when set, else
 * the same folder `npm run server` and `npm run cli` use by default, so the desktop app, the
 * headless server and the CLI share one database. On Windows and macOS that is Electron's own
 * default (appData/SignDesk); on Linux Electron would pick ~/.config, the server the XDG data
 * folder, and the server's choice wins.
 */
export function resolveDataDir(input: DataDirInput): string {
  const configured = input.env.DATA_DIR?.trim();
  if (configured) return path.resolve(configured);
  if (input.platform === 'linux') return path.join(input.env.XDG_DATA_HOME || path.join(input.home, '.local', 'share'), 'SignDesk');
  return path.join(input.appData, 'SignDesk');
}

export type AppFiles = {
  /** The bundled server host (dist/server/host.cjs), run in a utility process. */
  hostEntry: string;
  /** The sandboxed preload (dist/main/preload.cjs). */
  preload: string;
  windowIcon: string;
  trayIcon: string;
};

/** Files beside the bundled main (dist/main/index.js), as scripts/build.ts lays them out. */
export function resolveAppFiles(mainDir: string): AppFiles {
  return {
    hostEntry: path.join(mainDir, '..', 'server', 'host.cjs'),
    preload: path.join(mainDir, 'preload.cjs'),
    windowIcon: path.join(mainDir, 'assets', 'icon.png'),
    trayIcon: path.join(mainDir, 'assets', 'tray.png'),
  };
}
