import { describe, expect, it } from 'vitest';
import type { AttemptResult, RecipientOutcome } from '../../server/messages/attempt-result';
import { planAfterAttempt, type AttemptedMessage } from '../../server/messages/plan-attempt';

const SCHEDULE = [30, 120, 600];
const NOW = 1_000_000;

function message(channel: 'email' | 'sms', addresses: string[], roundAttempts = 1): AttemptedMessage {
  return {
    channel,
    recipients: addresses.map((address) => ({ address, state: 'pending', response: null })),
    roundAttempts,
    sentAt: null,
    messageId: '<m@example.test>',
  };
}

function result(entries: Array<[string, RecipientOutcome, string?]>, error: string | null = null): AttemptResult {
  return {
    recipients: entries.map(([address, outcome, response]) => ({ address, outcome, response: response ?? null })),
    response: null,
    messageId: null,
    error,
  };
}

describe('what an attempt leads to', () => {
  it('marks an accepted mail sent, with the email_status fact', () => {
    const plan = planAfterAttempt(
      message('email', ['a@x.se']),
      result([['a@x.se', 'accepted', '250 OK']]),
      SCHEDULE,
      NOW,
    );
    expect(plan.record).toMatchObject({
      state: 'sent',
      sentAt: NOW,
      nextAttemptAt: null,
      messageId: '<m@example.test>',
    });
    expect(plan.retryAt).toBeUndefined();
    expect(plan.partyFlags).toEqual({ sent: true });
  });

  it('hard-bounces a 5xx at once and keeps the accepted address sent', () => {
    const plan = planAfterAttempt(
      message('email', ['a@x.se', 'b@x.se']),
      result([
        ['A@X.SE', 'rejected-permanent', '550 no such user'],
        ['b@x.se', 'accepted', '250 OK'],
      ]),
      SCHEDULE,
      NOW,
    );
    expect(plan.record.state).toBe('bounced');
    expect(plan.record.recipients.map((r) => r.state)).toEqual(['hardbounced', 'sent']);
    expect(plan.partyFlags).toEqual({ sent: true, bounced: true, hardbounced: true });
    expect(plan.retryAt).toBeUndefined();
  });

  it('follows the schedule for temporary failures, then soft-bounces a 4xx', () => {
    const deferred = result([['a@x.se', 'rejected-temporary', '451 later']]);
    const second = planAfterAttempt(message('email', ['a@x.se'], 2), deferred, SCHEDULE, NOW);
    expect(second.record.state).toBe('queued');
    expect(second.retryAt).toBe(NOW + 120_000);
    expect(second.record.nextAttemptAt).toBe(NOW + 120_000);
    expect(second.partyFlags).toEqual({});
    const last = planAfterAttempt(message('email', ['a@x.se'], SCHEDULE.length + 1), deferred, SCHEDULE, NOW);
    expect(last.record.state).toBe('bounced');
    expect(last.record.recipients[0]).toEqual({ address: 'a@x.se', state: 'softbounced', response: '451 later' });
    expect(last.partyFlags).toEqual({ bounced: true, softbounced: true });
  });

  it('fails, without a bounce, mail whose server could not be reached for the whole schedule', () => {
    const down = result([['a@x.se', 'deferred']], 'ECONNECTION: connect ECONNREFUSED');
    const plan = planAfterAttempt(message('email', ['a@x.se'], SCHEDULE.length + 1), down, SCHEDULE, NOW);
    expect(plan.record).toMatchObject({ state: 'failed', lastError: 'ECONNECTION: connect ECONNREFUSED' });
    expect(plan.partyFlags).toEqual({});
  });

  it('fails an SMS on a permanent gateway error and never sets e-mail flags', () => {
    const plan = planAfterAttempt(
      message('sms', ['+46701234567']),
      result([['+46701234567', 'rejected-permanent', 'HTTP 400']]),
      SCHEDULE,
      NOW,
    );
    expect(plan.record.state).toBe('failed');
    expect(plan.partyFlags).toEqual({});
    const sent = planAfterAttempt(
      message('sms', ['+46701234567']),
      result([['+46701234567', 'accepted']]),
      SCHEDULE,
      NOW,
    );
    expect(sent.partyFlags).toEqual({});
  });

  it('treats an address the result does not mention as undecided', () => {
    const plan = planAfterAttempt(
      message('email', ['a@x.se', 'b@x.se']),
      result([['a@x.se', 'accepted']]),
      SCHEDULE,
      NOW,
    );
    expect(plan.record.state).toBe('queued');
    expect(plan.record.recipients.map((r) => r.state)).toEqual(['sent', 'pending']);
    expect(plan.retryAt).toBe(NOW + 30_000);
  });

  it('gives up at once with an empty schedule (the settings test mail)', () => {
    const plan = planAfterAttempt(message('email', ['a@x.se']), result([['a@x.se', 'deferred']]), [], NOW);
    expect(plan.record.state).toBe('failed');
    expect(plan.retryAt).toBeUndefined();
  });
});
