import { describe, expect, it } from 'vitest';
import type { TParty } from '../../shared/api/parties';
import { contractStatus } from '../../renderer/lib/contract-status';
import { answerProgress, describeParties } from '../../renderer/lib/party-state';
import { describeUserAgent } from '../../renderer/lib/user-agent';

const NO_MAIL = {
  sent: false,
  opened: false,
  clicked: false,
  bounced: false,
  hardbounced: false,
  softbounced: false,
  blocked: false,
  unsub: false,
  spam: false,
};

const party = (id: number, name: string, extra: Partial<TParty> = {}): TParty => ({
  self: `/api/contracts/1/parties/${id}`,
  name,
  email: `${name.toLowerCase()}@example.test`,
  mobile_phone: '',
  identity_number: '',
  delivery_method: 'EMAIL',
  sign_type: 'DEFAULT',
  sign_order: id,
  user: null,
  is_accept: false,
  sign_time: null,
  reject_cause: null,
  email_status: NO_MAIL,
  created_by: '/api/users/1',
  created_time: '2026-01-01 10:00:00',
  contract_url: `https://sign.example/sign/${id}`,
  reminders_sent: 0,
  role: null,
  role_number: null,
  ...extra,
});

const states = (parties: TParty[], status: Parameters<typeof describeParties>[1], isOrdered: boolean) =>
  describeParties(parties, status, isOrdered).map((view) => [view.party.name, view.state]);

describe('the contract page’s view of a contract', () => {
  it('reads the status from the flags, expired only when the log says so', () => {
    expect(contractStatus({ sent_time: null })).toBe('draft');
    expect(contractStatus({ sent_time: '2026-01-01 10:00:00' })).toBe('sent');
    expect(contractStatus({ sent_time: '2026-01-01 10:00:00' }, true)).toBe('expired');
    expect(contractStatus({ sent_time: '2026-01-01 10:00:00', is_signed: true }, true)).toBe('signed');
    expect(contractStatus({ sent_time: '2026-01-01 10:00:00', is_rejected: true })).toBe('rejected');
  });

  it('puts parties after the current group in order waiting for it, by the server’s turn rules', () => {
    const eva = party(1, 'Eva', { is_accept: true, sign_time: '2026-01-02 09:00:00' });
    const bo = party(2, 'Bo', { email_status: { ...NO_MAIL, sent: true, opened: true } });
    const cia = party(3, 'Cia', { sign_order: 2 });
    const dan = party(4, 'Dan', { sign_order: 3 });
    const viewer = party(5, 'Vera', { sign_type: 'VIEWER', sign_order: 9 });
    const parties = [eva, { ...bo, sign_order: 2 }, cia, dan, viewer];
    expect(states(parties, 'sent', true)).toEqual([
      ['Eva', 'signed'],
      ['Bo', 'opened'],
      ['Cia', 'invited'],
      ['Dan', 'waiting'],
      ['Vera', 'invited'],
    ]);
    const dansView = describeParties(parties, 'sent', true)[3];
    expect(dansView?.waitingFor.map((other) => other.name)).toEqual(['Bo', 'Cia']);
    // Without an order everyone open is invited at once.
    expect(states(parties, 'sent', false).map(([, state]) => state)).toEqual([
      'signed',
      'opened',
      'invited',
      'invited',
      'invited',
    ]);
    expect(answerProgress(describeParties(parties, 'sent', true))).toEqual({ done: 1, total: 4 });
  });

  it('shows answers whatever the status, and no answer once the links are closed', () => {
    const parties = [
      party(1, 'Eva', { reject_cause: 'Too expensive' }),
      party(2, 'Bo'),
      party(3, 'Cia', { sign_type: 'APPROVER', is_accept: true }),
    ];
    expect(states(parties, 'rejected', true)).toEqual([
      ['Eva', 'rejected'],
      ['Bo', 'unanswered'],
      ['Cia', 'approved'],
    ]);
    expect(states([party(1, 'Eva')], 'expired', false)).toEqual([['Eva', 'unanswered']]);
    expect(states([party(1, 'Eva'), party(2, 'Bo')], 'draft', true)).toEqual([
      ['Eva', 'draft'],
      ['Bo', 'draft'],
    ]);
  });

  it('names browsers and systems, and leaves other agents as they are', () => {
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      ),
    ).toBe('Edge · Windows');
    expect(
      describeUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari · iOS');
    expect(describeUserAgent('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe(
      'Firefox · Linux',
    );
    expect(describeUserAgent('curl/8.5.0')).toBe('curl/8.5.0');
  });
});
