import { contextBridge, ipcRenderer } from 'electron';
import { createDesktopApi, DESKTOP_API_NAME } from '../shared/ipc';

// Sandboxed preload (bundled to CommonJS): the page sees only `window.signdesk`.
contextBridge.exposeInMainWorld(
  DESKTOP_API_NAME,
  createDesktopApi((channel) => ipcRenderer.invoke(channel)),
);
