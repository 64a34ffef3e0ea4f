import { useState } from 'react';
import { EMAIL_STATUS_FLAGS, type TParty } from '../../../shared/api/parties';
import { CopyButton } from '../../components/copy-button';
import { DataTable } from '../../components/data-table';
import { Badge, Button, Card, EmptyState } from '../../components/ui';
import { useT } from '../../lib/i18n';
import type { ContractStatus } from '../../lib/contract-status';
import { PARTY_STATE_LABEL, PARTY_STATE_TONE, type PartyView } from '../../lib/party-state';
import { useSignedIn } from '../../lib/session';
import { AddPartyForm } from './add-party-form';
import { CorrectPartyDialog } from './correct-party-dialog';
import { EditPartyDialog } from './edit-party-dialog';
import type { TContractRole } from '../../../shared/api/contract-roles';

const isAnswered = (view: PartyView) =>
  view.state === 'signed' || view.state === 'approved' || view.state === 'rejected';

const BAD_FLAGS = new Set(['bounced', 'hardbounced', 'softbounced', 'blocked', 'unsub', 'spam']);

function PartyCell({ party, isOrdered }: { party: TParty; isOrdered: boolean }) {
  const t = useT();
  const session = useSignedIn();
  const contact = [party.email, party.mobile_phone].filter(Boolean).join(' · ');
  const templateRole = party.role ?? (party.role_number === null ? '' : t('roles.unnamed', { n: party.role_number }));
  const role = [
    templateRole,
    t(`signType.${party.sign_type}`),
    isOrdered ? t('party.orderNumber', { n: party.sign_order }) : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <td className="cell-party">
      <div className="cell-title">
        {party.name}
        {party.user === session.user.self ? <span className="you-tag">{t('party.you')}</span> : null}
      </div>
      {contact ? <div className="small muted wrap">{contact}</div> : null}
      <div className="small muted">{role}</div>
    </td>
  );
}

/** The state badge and the line under it: when it signed, why it rejected, whom it waits for. */
function StateCell({ view }: { view: PartyView }) {
  const t = useT();
  const { party, state } = view;
  let detail: string | undefined;
  if (state === 'signed' || state === 'approved') detail = party.sign_time ?? undefined;
  else if (state === 'rejected') detail = party.reject_cause ? `“${party.reject_cause}”` : undefined;
  else if (state === 'waiting')
    detail = t('party.after', { names: view.waitingFor.map((other) => other.name).join(', ') });
  else if ((state === 'invited' || state === 'opened') && party.delivery_method === 'NONE') detail = t('party.byHand');
  else if ((state === 'invited' || state === 'opened') && party.reminders_sent > 0)
    detail = t('party.remindedTimes', { n: party.reminders_sent });
  return (
    <td className="cell-state">
      <Badge tone={PARTY_STATE_TONE[state]}>{t(PARTY_STATE_LABEL[state])}</Badge>
      {detail ? (
        <div className={`small ${state === 'rejected' ? 'text-danger' : 'muted'} state-detail`}>{detail}</div>
      ) : null}
    </td>
  );
}

function EmailCell({ party }: { party: TParty }) {
  const t = useT();
  const flags = EMAIL_STATUS_FLAGS.filter((flag) => party.email_status[flag]);
  return (
    <td className="cell-flags">
      {flags.length === 0 ? <span className="muted">—</span> : null}
      <span className="badge-row">
        {flags.map((flag) => (
          <Badge key={flag} tone={BAD_FLAGS.has(flag) ? 'danger' : 'success'}>
            {t(`emailStatus.${flag}`)}
          </Badge>
        ))}
      </span>
    </td>
  );
}

type Props = {
  contractPath: string;
  views: PartyView[];
  status: ContractStatus;
  isOrdered: boolean;
  busy: string | undefined;
  roles: readonly TContractRole[];
  onRemove: (party: TParty) => void;
  onAdded: () => void;
};

/** Each party with its state and e-mail status; its personal link once sent; adding and removing while a draft. */
export function PartiesCard({ contractPath, views, status, isOrdered, busy, roles, onRemove, onAdded }: Props) {
  const t = useT();
  const [editing, setEditing] = useState<TParty>();
  const [correcting, setCorrecting] = useState<TParty>();
  const isDraft = status === 'draft';
  // A link is worth handing over while it can be signed, and once signed for the copy.
  const hasLinks = status === 'sent' || status === 'signed';
  return (
    <Card title={t('contract.parties')} description={hasLinks ? t('contract.partiesDescription') : undefined} isFlush>
      {views.length === 0 ? (
        <EmptyState title={t('contract.noParties')} body={isDraft ? t('contract.noPartiesBody') : undefined} />
      ) : null}
      {views.length > 0 ? (
        <DataTable
          caption={t('contract.parties')}
          columns={[t('field.party'), t('field.state'), t('field.emailStatus')]}
          hasActions
        >
          {views.map((view) => {
            const { party } = view;
            return (
              <tr key={party.self} data-testid="party-row" data-state={view.state}>
                <PartyCell party={party} isOrdered={isOrdered} />
                <StateCell view={view} />
                <EmailCell party={party} />
                <td className="row-actions">
                  {isDraft ? (
                    <>
                      <Button
                        size="small"
                        onClick={() => setEditing(party)}
                        aria-label={t('contract.editPartyNamed', { name: party.name })}
                      >
                        {t('action.edit')}
                      </Button>
                      <Button
                        size="small"
                        variant="ghost"
                        isBusy={busy === party.self}
                        onClick={() => onRemove(party)}
                        aria-label={t('contract.removePartyNamed', { name: party.name })}
                      >
                        {t('contract.removeParty')}
                      </Button>
                    </>
                  ) : null}
                  {status === 'sent' && !isAnswered(view) ? (
                    <Button
                      size="small"
                      variant="ghost"
                      onClick={() => setCorrecting(party)}
                      aria-label={t('party.correctNamed', { name: party.name })}
                    >
                      {t('party.correct')}
                    </Button>
                  ) : null}
                  {hasLinks ? (
                    <CopyButton
                      value={party.contract_url}
                      text={t('contract.copyLink')}
                      label={t('contract.copyLinkNamed', { name: party.name })}
                      title={t('contract.copyLinkTitle', { name: party.name })}
                    />
                  ) : null}
                </td>
              </tr>
            );
          })}
        </DataTable>
      ) : null}
      {isDraft ? <AddPartyForm contractPath={contractPath} roles={roles} onAdded={onAdded} /> : null}
      {correcting && status === 'sent' ? (
        <CorrectPartyDialog
          party={correcting}
          onClose={() => setCorrecting(undefined)}
          onSaved={() => {
            setCorrecting(undefined);
            onAdded();
          }}
        />
      ) : null}
      {editing && isDraft ? (
        <EditPartyDialog
          party={editing}
          isOrdered={isOrdered}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            onAdded();
          }}
        />
      ) : null}
    </Card>
  );
}
