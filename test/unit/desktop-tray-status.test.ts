import { describe, expect, it, vi } from 'vitest';
import {
  apiAddressOf,
  buildTrayMenu,
  describeStatusLines,
  describeTooltip,
  type ShellState,
} from '../../main/tray-status';

const running = (queuedDeliveries: number, outboxPending: number, baseUrl = 'http://127.0.0.1:8750'): ShellState => ({
  phase: 'running',
  status: { url: 'http://127.0.0.1:8750', baseUrl, queuedDeliveries, outboxPending },
});

describe('the tray status', () => {
  it('shows the listening address and what waits in the queues', () => {
    expect(describeStatusLines(running(0, 0))).toEqual([
      'Listening on http://127.0.0.1:8750',
      'No webhook deliveries waiting',
      'Outbox empty',
    ]);
    expect(describeStatusLines(running(1, 1))).toEqual([
      'Listening on http://127.0.0.1:8750',
      '1 webhook delivery waiting',
      '1 message waiting in the outbox',
    ]);
    expect(describeStatusLines(running(12_345, 7))).toEqual([
      'Listening on http://127.0.0.1:8750',
      '12,345 webhook deliveries waiting',
      '7 messages waiting in the outbox',
    ]);
  });

  it('names the public address when integrators use another one', () => {
    expect(describeStatusLines(running(0, 0, 'https://sign.office.example'))).toContain(
      'Public address https://sign.office.example',
    );
  });

  it("names the party listener's address when the surfaces are split (PUBLIC_PORT), and copies the office's API", () => {
    const status = {
      url: 'http://127.0.0.1:8750',
      baseUrl: 'http://127.0.0.1:8750',
      publicBaseUrl: 'https://sign.office.example',
      queuedDeliveries: 0,
      outboxPending: 0,
    };
    expect(describeStatusLines({ phase: 'running', status })).toEqual([
      'Listening on http://127.0.0.1:8750',
      'Public address https://sign.office.example',
      'No webhook deliveries waiting',
      'Outbox empty',
    ]);
    expect(apiAddressOf(status)).toBe('http://127.0.0.1:8750/api');
    // One surface: the party and the office address are the same, and said once.
    expect(describeStatusLines({ phase: 'running', status: { ...status, publicBaseUrl: status.url } })).toHaveLength(3);
  });

  it('says when the server starts, stops or has failed', () => {
    expect(describeStatusLines({ phase: 'starting' })).toEqual(['Starting the server…']);
    expect(describeStatusLines({ phase: 'stopping' })).toEqual(['Stopping: finishing the work in flight…']);
    expect(describeStatusLines({ phase: 'failed', message: 'port in use' })).toEqual(['Server stopped: port in use']);
  });

  it('keeps the tooltip within what Windows shows', () => {
    expect(describeTooltip(running(0, 0))).toBe('SignDesk: http://127.0.0.1:8750, nothing waiting');
    expect(describeTooltip(running(2, 1))).toBe('SignDesk: http://127.0.0.1:8750, 2 deliveries and 1 message waiting');
    const long = describeTooltip({ phase: 'failed', message: 'x'.repeat(500) });
    expect(long.length).toBe(127);
    expect(long.endsWith('…')).toBe(true);
  });

  it("copies the public base URL's /api as the API address", () => {
    const status = {
      url: 'http://127.0.0.1:8750',
      baseUrl: 'https://sign.office.example/',
      queuedDeliveries: 0,
      outboxPending: 0,
    };
    expect(apiAddressOf(status)).toBe('https://sign.office.example/api');
  });

  it('offers open, copy API address, logs and quit, enabled as the state allows', () => {
    const actions = { open: vi.fn(), copyApiAddress: vi.fn(), openLogsFolder: vi.fn(), quit: vi.fn() };
    const menu = buildTrayMenu(running(2, 0), actions);
    const item = (label: string) => menu.find((entry) => entry.label === label)!;
    expect(menu.filter((entry) => entry.type !== 'separator').map((entry) => [entry.label, entry.enabled])).toEqual([
      ['Listening on http://127.0.0.1:8750', false],
      ['2 webhook deliveries waiting', false],
      ['Outbox empty', false],
      ['Open SignDesk', true],
      ['Copy API address', true],
      ['Open logs folder', undefined],
      ['Quit SignDesk', true],
    ]);
    const click = (label: string) => (item(label).click as () => void)();
    click('Open SignDesk');
    click('Copy API address');
    click('Quit SignDesk');
    expect(actions.open).toHaveBeenCalledOnce();
    expect(actions.copyApiAddress).toHaveBeenCalledOnce();
    expect(actions.quit).toHaveBeenCalledOnce();

    const starting = buildTrayMenu({ phase: 'starting' }, actions);
    expect(starting.find((entry) => entry.label === 'Copy API address')?.enabled).toBe(false);
    const stopping = buildTrayMenu({ phase: 'stopping' }, actions);
    expect(stopping.find((entry) => entry.label === 'Quit SignDesk')?.enabled).toBe(false);
  });
});
