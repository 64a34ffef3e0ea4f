import { useState } from 'react';
import type { TContract } from '../../shared/api/contracts';
import { isAwaited } from '../lib/party-state';
import { useConfirm } from '../components/confirm';
import type { TParty } from '../../shared/api/parties';
import { Loading, Notice, PageHeader, ProblemAlert } from '../components/ui';
import { downloadFile, idOf, sendJson } from '../lib/api';
import { contractsListPath } from '../lib/contract-list-query';
import { useT } from '../lib/i18n';
import { Link, useRouter } from '../lib/router';
import { useAction } from '../lib/use-action';
import { ActivityCard } from './contract/activity-card';
import { ContractActions } from './contract/contract-actions';
import { RemindersCard } from './contract/reminders-card';
import { WithdrawDialog, type WithdrawOptions } from './contract/withdraw-dialog';
import { DetailsCard } from './contract/details-card';
import { AnswersCard } from './contract/answers-card';
import { AttachmentsCard } from './contract/attachments-card';
import { DocumentCard } from './contract/document-card';
import { EvidenceCard, TimestampPendingNotice } from './contract/evidence-card';
import { FieldsCard } from './contract/fields-card';
import { PartiesCard } from './contract/parties-card';
import { FieldsPerPartyCard } from './contract/fields-per-party-card';
import { SendDialog, type SendOptions } from './contract/send-dialog';
import { StatusPanel } from './contract/status-panel';
import { useContract, viewContract } from './contract/use-contract';
import { useSignedIn } from '../lib/session';

export function ContractPage({ id }: { id: string }) {
  const t = useT();
  const { navigate } = useRouter();
  const session = useSignedIn();
  const data = useContract(id);
  const { path, contract, parties, log } = data;
  const action = useAction();
  const confirm = useConfirm();
  const [isSending, setIsSending] = useState(false);
  const [isWithdrawing, setIsWithdrawing] = useState(false);
  const [reminded, setReminded] = useState<string>();

  const loadError = (!contract.data && contract.error) || (!parties.data && parties.error);
  if (loadError) return <ProblemAlert error={loadError} />;
  if (!contract.data || !parties.data) return <Loading />;
  const view = viewContract(contract.data, parties.data, log.data ?? [], session.channels);
  const row = view.contract;
  const isDraft = view.status === 'draft';
  const title = row.name || t('contracts.untitled', { id });

  const act = (kind: string, work: () => Promise<unknown>) =>
    action.run(kind, async () => {
      setReminded(undefined);
      await work();
      await data.reload();
    });
  const remove = async () => {
    if (
      !(await confirm({
        title: t('confirm.title'),
        body: t('contract.confirmDelete', { name: title }),
        confirmLabel: t('action.delete'),
      }))
    )
      return;
    void action.run('delete', async () => {
      await sendJson('DELETE', path);
      navigate('/contracts');
    });
  };
  const send = async (options: SendOptions) => {
    if (await act('send', () => sendJson('POST', `${path}/send`, options))) setIsSending(false);
  };
  const remind = () => {
    const awaited = view.views.filter(isAwaited);
    void act('notify', async () => {
      await sendJson('POST', `${path}/notify`);
      setReminded(awaited.map((party) => party.party.name).join(', '));
    });
  };
  const removeParty = async (party: TParty) => {
    if (
      await confirm({
        title: t('confirm.title'),
        body: t('contract.confirmRemoveParty', { name: party.name }),
        confirmLabel: t('action.delete'),
      })
    )
      void act(party.self, () => sendJson('DELETE', party.self));
  };
  const openSend = () => {
    action.dismiss();
    setIsSending(true);
  };
  const download = () =>
    void action.run('download', () => downloadFile(`${path}/signed_pdf`, 'application/pdf', `${title}.pdf`));
  const withdraw = async (options: WithdrawOptions) => {
    const body = { silent: options.silent, ...(options.reason.trim() ? { reason: options.reason.trim() } : {}) };
    if (await act('withdraw', () => sendJson('POST', `${path}/withdraw`, body))) setIsWithdrawing(false);
  };
  const duplicate = () =>
    void action.run('duplicate', async () => {
      const copy = await sendJson<TContract>(
        'POST',
        `${path}/duplicate`,
        row.name ? { name: t('contract.copyName', { name: row.name.slice(0, 980) }) } : {},
      );
      navigate(`/contracts/${idOf(copy.self)}`);
    });
  const openWithdraw = () => {
    action.dismiss();
    setIsWithdrawing(true);
  };
  const isDialogOpen = isSending || isWithdrawing;

  return (
    <>
      <PageHeader
        title={title}
        back={<Link to={contractsListPath()}>← {t('nav.contracts')}</Link>}
        actions={
          <ContractActions
            view={view}
            busy={action.busy}
            handlers={{
              onDelete: remove,
              onSend: openSend,
              onRemind: remind,
              onWithdraw: openWithdraw,
              onDuplicate: duplicate,
              onDownload: download,
            }}
          />
        }
      />
      {isDialogOpen ? null : <ProblemAlert error={action.error} onDismiss={action.dismiss} />}
      {reminded !== undefined && view.status === 'sent' ? (
        <Notice tone="success">{t('contract.reminded', { names: reminded })}</Notice>
      ) : null}
      <StatusPanel view={view} />
      <TimestampPendingNotice contract={row} />
      <PartiesCard
        contractPath={path}
        views={view.views}
        status={view.status}
        isOrdered={row.party_order_defined}
        busy={action.busy}
        roles={data.roles.data ?? []}
        onRemove={removeParty}
        onAdded={() => void data.reload()}
      />
      <FieldsPerPartyCard contractPath={path} views={view.views} roles={data.roles.data ?? []} />
      {/* Until signed, the document is shown with its fields (placed here while a draft); once signed, the sealed PDF. */}
      {view.status === 'signed' ? null : <FieldsCard contract={row} parties={parties.data} isDraft={isDraft} />}
      <div className={view.status === 'signed' ? 'split split-document' : 'stack'}>
        <div className="split-main stack">
          <DetailsCard contract={row} isDraft={isDraft} onSaved={data.reload} />
          <RemindersCard view={view} onSaved={data.reload} />
          {isDraft ? null : (
            <AnswersCard
              contractPath={path}
              parties={parties.data}
              answered={(parties.data ?? []).filter((party) => party.is_accept).length}
            />
          )}
          <AttachmentsCard
            contractPath={path}
            attachments={data.attachments.data}
            isDraft={isDraft}
            onChanged={data.reload}
          />
          <ActivityCard entries={log.data} parties={parties.data} />
          {isDraft ? null : (
            <EvidenceCard path={path} contract={row} log={log.data ?? []} isSigned={view.status === 'signed'} />
          )}
        </div>
        {view.status === 'signed' ? <DocumentCard contract={row} isSigned /> : null}
      </div>
      {isWithdrawing ? (
        <WithdrawDialog
          views={view.views}
          isBusy={action.busy === 'withdraw'}
          error={action.error}
          onWithdraw={(options) => void withdraw(options)}
          onClose={() => setIsWithdrawing(false)}
        />
      ) : null}
      {isSending ? (
        <SendDialog
          views={view.views}
          isOrdered={row.party_order_defined}
          isBusy={action.busy === 'send'}
          error={action.error}
          onSend={(options) => void send(options)}
          onClose={() => setIsSending(false)}
        />
      ) : null}
    </>
  );
}
