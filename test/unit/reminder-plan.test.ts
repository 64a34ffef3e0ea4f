import { describe, expect, it } from 'vitest';
import type { ContractRow } from '../../server/db/repos/contracts';
import type { PartyRow } from '../../server/db/repos/parties';
import { reminderPlan } from '../../server/signing/plan-reminders';

const DAY = 1_000;
const SENT = 100_000;

const contract = (overrides: Partial<ContractRow> = {}) =>
  ({
    status: 'sent',
    withdrawnAt: null,
    expireAt: null,
    sentAt: SENT,
    partyOrderDefined: false,
    reminderIntervalDays: 2,
    reminderMaxCount: 2,
    expiryWarningDays: null,
    expiryWarnedAt: null,
    ...overrides,
  }) as ContractRow;
const party = (id: number, overrides: Partial<PartyRow> = {}) =>
  ({
    id,
    signType: 'DEFAULT',
    signOrder: id,
    isAccept: false,
    rejectedAt: null,
    deliveryMethod: 'EMAIL',
    invitedAt: SENT,
    lastRemindedAt: null,
    remindersSent: 0,
    ...overrides,
  }) as PartyRow;

describe('reminderPlan', () => {
  it('reminds each awaited party an interval after its invitation or last reminder, up to the maximum', () => {
    const plan = reminderPlan(
      contract(),
      [
        party(1),
        party(2, { lastRemindedAt: SENT + 5 * DAY, remindersSent: 1 }),
        party(3, { remindersSent: 2 }),
        party(4, { isAccept: true }),
      ],
      SENT,
      DAY,
    );
    expect(plan.reminders.map((reminder) => [reminder.party.id, reminder.at])).toEqual([
      [1, SENT + 2 * DAY],
      [2, SENT + 7 * DAY],
    ]);
    expect(plan.nextReminderAt).toBe(SENT + 2 * DAY);
  });

  it('leaves out viewers, parties without delivery, those not in turn, and reminders at or after the links close', () => {
    const parties = [
      party(1, { signType: 'VIEWER' }),
      party(2, { deliveryMethod: 'NONE', signOrder: 3 }),
      party(3),
      party(4, { signOrder: 9 }),
    ];
    expect(
      reminderPlan(contract({ partyOrderDefined: true, expireAt: SENT + 5 * DAY }), parties, SENT, DAY).reminders.map(
        (r) => r.party.id,
      ),
    ).toEqual([3]);
    expect(reminderPlan(contract({ expireAt: SENT + 2 * DAY }), [party(1)], SENT, DAY).nextReminderAt).toBeNull();
  });

  it('warns once before the links close, unless that is not after the send', () => {
    expect(
      reminderPlan(contract({ expireAt: SENT + 10 * DAY, expiryWarningDays: 3 }), [party(1)], SENT, DAY).warningAt,
    ).toBe(SENT + 7 * DAY);
    expect(
      reminderPlan(contract({ expireAt: SENT + 3 * DAY, expiryWarningDays: 3 }), [party(1)], SENT, DAY).warningAt,
    ).toBeNull();
    expect(
      reminderPlan(
        contract({ expireAt: SENT + 10 * DAY, expiryWarningDays: 3, expiryWarnedAt: SENT }),
        [party(1)],
        SENT,
        DAY,
      ).warningAt,
    ).toBeNull();
  });

  it('plans nothing once answered, withdrawn or expired', () => {
    for (const closed of [
      { status: 'signed' },
      { status: 'rejected' },
      { withdrawnAt: SENT },
      { expireAt: SENT },
    ] as Partial<ContractRow>[]) {
      expect(reminderPlan(contract({ expiryWarningDays: 1, ...closed }), [party(1)], SENT, DAY)).toMatchObject({
        nextReminderAt: null,
        warningAt: null,
      });
    }
  });
});
