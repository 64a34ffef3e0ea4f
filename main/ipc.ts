import type { IpcMain } from 'electron';
import { IPC_CHANNELS, type DesktopApi, type DesktopCall, type IpcChannel } from '../shared/ipc';
import { isTrustedSender } from './url-rules';

export type DesktopActions = { [Call in DesktopCall]: () => ReturnType<DesktopApi[Call]> };

export type IpcHandler = (senderUrl: string | undefined) => Promise<unknown>;

/**
 * One handler per channel of shared/ipc.ts and no other; each first checks that the caller is
 * a page of the app's own origin (a frame from elsewhere gets an error, not the action).
 */
export function createIpcHandlers(
  actions: DesktopActions,
  appOrigin: () => string | undefined,
): Map<IpcChannel, IpcHandler> {
  const handlers = new Map<IpcChannel, IpcHandler>();
  for (const call of Object.keys(IPC_CHANNELS) as DesktopCall[]) {
    handlers.set(IPC_CHANNELS[call], async (senderUrl) => {
      if (!isTrustedSender(senderUrl, appOrigin()))
        throw new Error(`${IPC_CHANNELS[call]} refused: the caller is not a SignDesk page`);
      return actions[call]();
    });
  }
  return handlers;
}

export function registerIpcHandlers(ipcMain: IpcMain, handlers: Map<IpcChannel, IpcHandler>): void {
  for (const [channel, handle] of handlers) ipcMain.handle(channel, (event) => handle(event.senderFrame?.url));
}
