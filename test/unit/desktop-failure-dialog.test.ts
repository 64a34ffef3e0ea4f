import { describe, expect, it } from 'vitest';
import { describeServerFailure } from '../../main/failure';
import { DataDirBusy } from '../../server/db/data-dir-lock';

describe("the desktop app's failure dialog", () => {
  it('says another SignDesk has the data folder, which process and where it answers', () => {
    const busy = new DataDirBusy('/home/eva/.local/share/SignDesk', {
      pid: 4242,
      role: 'server',
      url: 'http://127.0.0.1:8750',
      started: '2026-11-26T12:00:00.000Z',
    });
    const dialog = describeServerFailure({ kind: 'start', message: busy.message, logsDir: '/logs' });
    expect(dialog.message).toBe('SignDesk is already running on this computer with the same data folder.');
    expect(dialog.detail).toContain('process 4242 at http://127.0.0.1:8750');
    expect(dialog.detail).toContain('/home/eva/.local/share/SignDesk');
    expect(dialog.detail).toContain('Restart the server');
    expect(dialog.buttons[dialog.defaultId]).toBe('Restart the server');
  });

  it('keeps the general text for other failures', () => {
    const dialog = describeServerFailure({ kind: 'start', message: 'The port is already in use', logsDir: null });
    expect(dialog.message).toBe('The SignDesk server could not start.');
    expect(dialog.detail).toContain('The port is already in use');
  });
});
