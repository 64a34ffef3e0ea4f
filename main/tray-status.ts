import type { MenuItemConstructorOptions } from 'electron';
import type { TServerStatus } from '../shared/host-messages';

/** What the shell knows about its server, as the tray shows it. */
export type ShellState =
  | { phase: 'starting' }
  | { phase: 'running'; status: TServerStatus }
  | { phase: 'stopping' }
  | { phase: 'failed'; message: string };

export type TrayActions = {
  open(): void;
  copyApiAddress(): void;
  openLogsFolder(): void;
  quit(): void;
};

/** Windows cuts tray tooltips at 127 characters. */
const MAX_TOOLTIP_LENGTH = 127;

function count(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

export function describeDeliveries(n: number): string {
  return n === 0 ? 'No webhook deliveries waiting' : `${count(n, 'webhook delivery', 'webhook deliveries')} waiting`;
}

export function describeOutbox(n: number): string {
  return n === 0 ? 'Outbox empty' : `${count(n, 'message', 'messages')} waiting in the outbox`;
}

/** The status lines at the top of the tray menu. */
export function describeStatusLines(state: ShellState): string[] {
  switch (state.phase) {
    case 'starting':
      return ['Starting the server…'];
    case 'stopping':
      return ['Stopping: finishing the work in flight…'];
    case 'failed':
      return [`Server stopped: ${state.message}`];
    case 'running': {
      const { status } = state;
      const lines = [`Listening on ${status.url}`];
      // Where parties' links lead: the party listener or PUBLIC_BASE_URL (docs/reach.md).
      const publicAddress = status.publicBaseUrl ?? status.baseUrl;
      if (publicAddress !== status.url) lines.push(`Public address ${publicAddress}`);
      lines.push(describeDeliveries(status.queuedDeliveries), describeOutbox(status.outboxPending));
      return lines;
    }
  }
}

export function describeTooltip(state: ShellState): string {
  let text: string;
  switch (state.phase) {
    case 'running': {
      const { status } = state;
      const waiting = status.queuedDeliveries + status.outboxPending;
      text = `SignDesk: ${status.url}${waiting === 0 ? ', nothing waiting' : `, ${count(status.queuedDeliveries, 'delivery', 'deliveries')} and ${count(status.outboxPending, 'message', 'messages')} waiting`}`;
      break;
    }
    case 'failed':
      text = `SignDesk: server stopped (${state.message})`;
      break;
    default:
      text = `SignDesk: ${state.phase}…`;
  }
  return text.length <= MAX_TOOLTIP_LENGTH ? text : `${text.slice(0, MAX_TOOLTIP_LENGTH - 1)}…`;
}

/** The API address integrators use: the public base URL's /api. */
export function apiAddressOf(status: TServerStatus): string {
  return `${status.baseUrl.replace(/\/+$/, '')}/api`;
}

export function buildTrayMenu(state: ShellState, actions: TrayActions): MenuItemConstructorOptions[] {
  const isRunning = state.phase === 'running';
  return [
    ...describeStatusLines(state).map((label): MenuItemConstructorOptions => ({ label, enabled: false })),
    { type: 'separator' },
    { label: 'Open SignDesk', enabled: isRunning, click: () => actions.open() },
    { label: 'Copy API address', enabled: isRunning, click: () => actions.copyApiAddress() },
    { label: 'Open logs folder', click: () => actions.openLogsFolder() },
    { type: 'separator' },
    { label: 'Quit SignDesk', enabled: state.phase !== 'stopping', click: () => actions.quit() },
  ];
}
