import type { TServerStatus } from './host-messages';

/**
 * The desktop shell's API for the admin UI: one namespaced object, `window.signdesk`, with a
 * fixed list of calls that take no arguments. No generic invoke, nothing that takes a path;
 * the admin UI does everything else over HTTP like any browser.
 */
export const DESKTOP_API_NAME = 'signdesk';

export type DesktopApi = {
  /** True inside the desktop app (the same admin UI also runs in a plain browser). */
  readonly isDesktop: true;
  /** The server's address and the work waiting in its queues, as the tray shows them. */
  getStatus(): Promise<TServerStatus>;
  /** Copies the API address to the clipboard and resolves with what was copied. */
  copyApiAddress(): Promise<string>;
  /** Opens the folder of the server's logs in the system's file manager. */
  openLogsFolder(): Promise<void>;
};

export type DesktopCall = Exclude<keyof DesktopApi, 'isDesktop'>;

export const IPC_CHANNELS = {
  getStatus: 'signdesk:get-status',
  copyApiAddress: 'signdesk:copy-api-address',
  openLogsFolder: 'signdesk:open-logs-folder',
} as const satisfies Record<DesktopCall, `signdesk:${string}`>;

export type IpcChannel = (typeof IPC_CHANNELS)[DesktopCall];

/** Made in the preload around `ipcRenderer.invoke`; only these channels, never with arguments. */
export function createDesktopApi(invoke: (channel: IpcChannel) => Promise<unknown>): DesktopApi {
  return Object.freeze({
    isDesktop: true as const,
    getStatus: () => invoke(IPC_CHANNELS.getStatus) as Promise<TServerStatus>,
    copyApiAddress: async () => String(await invoke(IPC_CHANNELS.copyApiAddress)),
    openLogsFolder: async () => {
      await invoke(IPC_CHANNELS.openLogsFolder);
    },
  });
}
