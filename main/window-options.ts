import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';

/**
 * The renderer gets nothing of Node: an isolated, sandboxed page that reaches the server over
 * HTTP and the shell only through the preload's small API.
 */
export function hardenedWebPreferences(preload: string | undefined): WebPreferences {
  return {
    ...(preload ? { preload } : {}),
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: true,
  };
}

export function createWindowOptions(files: { preload: string; icon: string }): BrowserWindowConstructorOptions {
  return {
    title: 'SignDesk',
    width: 1280,
    height: 840,
    minWidth: 900,
    minHeight: 600,
    // Shown once the first page has painted, so the user never sees a blank white frame.
    show: false,
    backgroundColor: '#f6f7fb',
    icon: files.icon,
    autoHideMenuBar: true,
    webPreferences: hardenedWebPreferences(files.preload),
  };
}

/** A window the admin UI opens on its own origin (e.g. a PDF): hardened, without the preload. */
export function createChildWindowOptions(): BrowserWindowConstructorOptions {
  return { width: 1000, height: 800, autoHideMenuBar: true, webPreferences: hardenedWebPreferences(undefined) };
}

/**
 * The page the window opens: the one-time sign-in link when the server gave one on its own
 * origin, else the admin UI's front door.
 */
export function chooseWindowUrl(serverUrl: string, loginUrl: string | null): string {
  const fallback = `${serverUrl}/admin`;
  if (!loginUrl) return fallback;
  try {
    return new URL(loginUrl).origin === new URL(serverUrl).origin ? loginUrl : fallback;
  } catch {
    return fallback;
  }
}
