import { BrowserWindow } from 'electron';
import type { AppFiles } from './app-paths';
import { createWindowOptions } from './window-options';

export type MainWindow = { open(url: string): void; show(): void; close(): void };

/**
 * The one admin window. Closing it hides it: the server keeps serving the API and the signing
 * pages from the tray until the user quits. A window made anew (the old one was destroyed)
 * opens `freshUrl()`, a new one-time sign-in link: the last one is spent.
 */
export function createMainWindow(
  files: AppFiles,
  isQuitting: () => boolean,
  freshUrl: () => Promise<string | undefined>,
): MainWindow {
  let window: BrowserWindow | undefined;
  let lastUrl: string | undefined;
  const ensure = () => {
    if (window && !window.isDestroyed()) return window;
    const created = new BrowserWindow(createWindowOptions({ preload: files.preload, icon: files.windowIcon }));
    created.once('ready-to-show', () => created.show());
    created.on('close', (event) => {
      if (isQuitting()) return;
      event.preventDefault();
      created.hide();
    });
    window = created;
    return created;
  };
  return {
    open(url) {
      lastUrl = url;
      void ensure().loadURL(url);
    },
    show() {
      const isNew = !window || window.isDestroyed();
      const shown = ensure();
      if (isNew) {
        void freshUrl()
          .catch(() => undefined)
          .then((url) => {
            const next = url ?? lastUrl;
            if (next && !shown.isDestroyed()) void shown.loadURL(next);
          });
      }
      if (shown.isMinimized()) shown.restore();
      shown.show();
      shown.focus();
    },
    close() {
      if (window && !window.isDestroyed()) window.destroy();
      window = undefined;
    },
  };
}
