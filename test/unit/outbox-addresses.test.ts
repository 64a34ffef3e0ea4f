import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config/config';
import { parseAddressList, senderOf } from '../../server/messages/mail/mail-address';
import { normalizePhoneNumber } from '../../server/messages/sms/enqueue-sms';

describe('addresses and numbers', () => {
  it('reads every mailbox of an address list', () => {
    expect(parseAddressList('Åsa Öberg <asa@example.test>, b@example.test; Team: c@example.test;')).toEqual([
      { name: 'Åsa Öberg', address: 'asa@example.test' },
      { name: '', address: 'b@example.test' },
      { name: '', address: 'c@example.test' },
    ]);
    expect(parseAddressList('not an address')).toEqual([]);
  });

  it('lets the message name the sender of MAIL_FROM', () => {
    expect(senderOf('Office <office@example.test>', 'Kontoret i Åre')).toEqual({
      name: 'Kontoret i Åre',
      address: 'office@example.test',
    });
    expect(senderOf('Office <office@example.test>', null)).toEqual({ name: 'Office', address: 'office@example.test' });
    expect(senderOf('nonsense', null)).toBeUndefined();
  });

  it('normalizes phone numbers for the gateway', () => {
    expect(normalizePhoneNumber('+46 70-123 45 67')).toBe('+46701234567');
    expect(normalizePhoneNumber('0046 (70) 123.45.67')).toBe('+46701234567');
    expect(normalizePhoneNumber('070 123')).toBe('070123');
    expect(normalizePhoneNumber('call me')).toBeUndefined();
    expect(normalizePhoneNumber('+46 70 123 45 67 89 01 23')).toBeUndefined();
  });
});

describe('outbox configuration', () => {
  it('reads the retry schedule and timeout, and refuses mail settings that cannot work', () => {
    const config = loadConfig({
      OUTBOX_RETRY_SCHEDULE_S: '1,2.5,60',
      OUTBOX_TIMEOUT_MS: '500',
      SMTP_URL: 'smtps://u:p@mail.example.test:465',
    });
    expect(config.outboxRetryScheduleS).toEqual([1, 2.5, 60]);
    expect(config.outboxTimeoutMs).toBe(500);
    expect(loadConfig({}).outboxRetryScheduleS).toEqual([30, 120, 600, 3600, 14400, 28800, 43200, 86400]);
    expect(() => loadConfig({ SMTP_URL: 'mail.example.test:25' })).toThrow(
      /SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/,
    );
    expect(() => loadConfig({ MAIL_FROM: 'office' })).toThrow(/MAIL_FROM: must be an e-mail address/);
    expect(() => loadConfig({ SMS_GATEWAY_URL: 'gateway' })).toThrow(/SMS_GATEWAY_URL: must be an http/);
    expect(() => loadConfig({ OUTBOX_RETRY_SCHEDULE_S: '30,soon' })).toThrow(/OUTBOX_RETRY_SCHEDULE_S/);
  });
});
