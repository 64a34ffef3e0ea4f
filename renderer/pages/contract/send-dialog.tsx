import { useState } from 'react';
import type { TParty } from '../../../shared/api/parties';
import { partiesToInviteAtSend } from '../../../shared/signing-order';
import { linkReachOf } from '../../../shared/api/reach';
import { CheckboxField } from '../../components/fields';
import { Button, Dialog, Notice, ProblemAlert } from '../../components/ui';
import type { ApiError } from '../../lib/api';
import { useT } from '../../lib/i18n';
import type { PartyView } from '../../lib/party-state';
import { useSignedIn } from '../../lib/session';

export type SendOptions = { silent: boolean; auto_sign: boolean };

/** How a party hears of the contract at send: its delivery, later by its turn, or not at all. */
function useInvitationText() {
  const t = useT();
  return (party: TParty, isInvitedNow: boolean, isSilent: boolean): string => {
    if (party.sign_type === 'VIEWER') return t('send.copy');
    if (!isInvitedNow) return t('send.later');
    if (isSilent || party.delivery_method === 'NONE') return t('send.byHand');
    if (party.delivery_method === 'SMS') return t('send.sms', { to: party.mobile_phone });
    if (party.delivery_method === 'EMAIL_AND_SMS')
      return t('send.emailAndSms', { to: party.email, sms: party.mobile_phone });
    return t('send.email', { to: party.email });
  };
}

type Props = {
  views: PartyView[];
  isOrdered: boolean;
  isBusy: boolean;
  error: ApiError | undefined;
  onSend: (options: SendOptions) => void;
  onClose: () => void;
};

/** Sending, with its two options explained: no invitations (silent) and signing one's own part at once (auto-sign). */
export function SendDialog({ views, isOrdered, isBusy, error, onSend, onClose }: Props) {
  const t = useT();
  const session = useSignedIn();
  const invitationText = useInvitationText();
  const [options, setOptions] = useState<SendOptions>({ silent: false, auto_sign: false });
  const parties = views.map((view) => view.party);
  const turns = parties.map((party, index) => ({
    id: index,
    signType: party.sign_type,
    signOrder: party.sign_order,
    isAccept: false,
    hasRejected: false,
  }));
  const invitedNow = new Set(partiesToInviteAtSend(turns, isOrdered).map((turn) => turn.id));
  const mine = parties.filter((party) => party.user === session.user.self && party.sign_type !== 'VIEWER');
  // Invitations that would wait in the outbox: said before sending, not discovered after.
  const bySms = parties.filter(
    (party, index) =>
      !options.silent &&
      invitedNow.has(index) &&
      (party.delivery_method === 'SMS' || party.delivery_method === 'EMAIL_AND_SMS'),
  );
  const byEmail = parties.filter(
    (party, index) =>
      !options.silent &&
      invitedNow.has(index) &&
      (party.delivery_method === 'EMAIL' || party.delivery_method === 'EMAIL_AND_SMS'),
  );
  // Links that a messaged party could not open (this PC's or the LAN's address): said before sending.
  const messaged = [...new Set([...byEmail, ...bySms])].filter((party) => party.contract_url !== '');
  const unreachable = (reach: 'loopback' | 'private') =>
    messaged.filter((party) => linkReachOf(party.contract_url) === reach);
  const linkWarnings = (['loopback', 'private'] as const).flatMap((reach) => {
    const names = unreachable(reach).map((party) => party.name);
    if (names.length === 0) return [];
    const url = new URL(unreachable(reach)[0]!.contract_url).origin;
    const key = reach === 'loopback' ? 'send.linkLoopback' : 'send.linkPrivate';
    return [t(key, { url, names: names.join(', ') })];
  });
  const waiting = [
    ...linkWarnings,
    ...(!session.channels.sms && bySms.length > 0
      ? [t('send.noSmsGateway', { names: bySms.map((party) => party.name).join(', ') })]
      : []),
    ...(!session.channels.email && byEmail.length > 0
      ? [t('send.noMailServer', { names: byEmail.map((party) => party.name).join(', ') })]
      : []),
  ];
  const footer = (
    <>
      <Button onClick={onClose}>{t('action.cancel')}</Button>
      <Button
        variant="primary"
        isBusy={isBusy}
        onClick={() => onSend({ silent: options.silent, auto_sign: options.auto_sign && mine.length > 0 })}
      >
        {t('send.confirm')}
      </Button>
    </>
  );
  return (
    <Dialog title={t('send.title')} isOpen onClose={onClose} footer={footer}>
      <p>{t('send.lead')}</p>
      <ProblemAlert error={error} />
      {waiting.map((line) => (
        <Notice key={line} tone="warning">
          {line}
        </Notice>
      ))}
      <div>
        <h3 className="dialog-subheading">{t('send.who')}</h3>
        <ul className="recipient-list">
          {parties.map((party, index) => (
            <li key={party.self}>
              <strong>{party.name}</strong>
              <span className="muted"> — {invitationText(party, invitedNow.has(index), options.silent)}</span>
            </li>
          ))}
        </ul>
      </div>
      <CheckboxField
        label={t('send.silent')}
        hint={t('send.silentHint')}
        checked={options.silent}
        onChecked={(silent) => setOptions({ ...options, silent })}
      />
      <CheckboxField
        label={t('send.autoSign')}
        hint={
          mine.length > 0
            ? t('send.autoSignHint', { names: mine.map((party) => party.name).join(', ') })
            : t('send.autoSignNone')
        }
        checked={options.auto_sign && mine.length > 0}
        disabled={mine.length === 0}
        onChecked={(autoSign) => setOptions({ ...options, auto_sign: autoSign })}
      />
    </Dialog>
  );
}
