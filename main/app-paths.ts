import path from 'node:path';
import { defaultDataDirSegments } from '../shared/data-dir';

export type DataDirInput = {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  home: string;
};

/**
 * The app's user-data folder, which is also the server's DATA_DIR: DATA_DIR when set, else the
 * very folder `npm run server` and `npm run cli` use by default (the server's own rule, so the
 * three never drift apart): appData/SignDesk on Windows and macOS, the XDG data folder on Linux.
 * An empty variable counts as unset.
 */
export function resolveDataDir(input: DataDirInput): string {
  const configured = input.env.DATA_DIR?.trim();
  if (configured) return path.resolve(configured);
  return path.join(...defaultDataDirSegments(input.platform, input.env, input.home));
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
