import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTIVITY_DETAILS, ACTIVITY_EVENTS } from '../../shared/activity-events';

/** Every `event: '…'` the server writes, read from its sources. */
function eventsWrittenByServer(): Set<string> {
  const events = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith('.ts')) {
        const source = fs.readFileSync(file, 'utf8');
        for (const match of source.matchAll(/event: (?:[^?\n]*\? )?'([a-z]+\.[a-z_]+)'(?: : '([a-z]+\.[a-z_]+)')?/g)) {
          events.add(match[1]!);
          if (match[2]) events.add(match[2]);
        }
      }
    }
  };
  walk(path.resolve('server'));
  return events;
}

describe('the table of activity events', () => {
  it('names every event the server writes, in English and Swedish', () => {
    const events = eventsWrittenByServer();
    expect(events.size).toBeGreaterThan(15);
    const missing = [...events].filter((event) => !(event in ACTIVITY_EVENTS));
    expect(missing).toEqual([]);
    for (const [event, label] of Object.entries(ACTIVITY_EVENTS)) {
      expect(label.en, event).not.toBe('');
      expect(label.sv, event).not.toBe('');
      expect(label.sv, event).not.toBe(label.en);
    }
  });

  it('names the details the server writes', () => {
    for (const key of [
      'channel',
      'email',
      'mobile_phone',
      'silent',
      'auto_sign',
      'signature_name',
      'mark',
      'mark_sha256',
      'authentication',
      'cause',
      'reason',
      'name',
      'sha256',
      'size',
      'authority',
      'kind',
      'authority_time',
      'clock_offset_s',
      'error',
      'copy_of',
      'reminder_interval_days',
      'reminder_max_count',
      'expiry_warning_days',
    ]) {
      expect(key in ACTIVITY_DETAILS, key).toBe(true);
    }
  });
});
