import { useState } from 'react';
import type { TContract } from '../../shared/api/contracts';
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
import { AttachmentsCard, DocumentCard } from './contract/document-card';
import { PartiesCard } from './contract/parties-card';
import { SendDialog, type SendOptions } from './contract/send-dialog';
import { StatusPanel } from './contract/status-panel';
import { useContract, viewContract } from './contract/use-contract';

export function ContractPage({ id }: { id: string }) {
  const t = useT();
  const { navigate } = useRouter();
  const data = useContract(id);
  const { path, contract, parties, log } = data;
  const action = useAction();
  const [isSending, setIsSending] = useState(false);
  const [isWithdrawing, setIsWithdrawing] = useState(false);
  const [reminded, setReminded] = useState<string>();

  const loadError = (!contract.data && contract.error) || (!parties.data && parties.error);
  if (loadError) return <ProblemAlert error={loadError} />;
  if (!contract.data || !parties.data) return <Loading />;
  const view = viewContract(contract.data, parties.data, log.data ?? []);
  const row = view.contract;
  const isDraft = view.status === 'draft';
  const title = row.name || t('contracts.untitled', { id });

  const act = (kind: string, work: () => Promise<unknown>) =>
    action.run(kind, async () => {
      setReminded(undefined);
      await work();
      await data.reload();
    });
  const remove = () => {
    if (!window.confirm(t('contract.confirmDelete', { name: title }))) return;
    void action.run('delete', async () => {
      await sendJson('DELETE', path);
      navigate('/contracts');
    });
  };
  const send = async (options: SendOptions) => {
    if (await act('send', () => sendJson('POST', `${path}/send`, options))) setIsSending(false);
  };
  const remind = () => {
    const awaited = view.views.filter((party) => party.isAnswering && (party.state === 'invited' || party.state === 'opened'));
    void act('notify', async () => {
      await sendJson('POST', `${path}/notify`);
      setReminded(awaited.map((party) => party.party.name).join(', '));
    });
  };
  const removeParty = (party: TParty) => {
    if (window.confirm(t('contract.confirmRemoveParty', { name: party.name }))) void act(party.self, () => sendJson('DELETE', party.self));
  };
  const openSend = () => {
    action.dismiss();
    setIsSending(true);
  };
  const download = () => void action.run('download', () => downloadFile(`${path}/signed_pdf`, 'application/pdf', `${title}.pdf`));
  const withdraw = async (options: WithdrawOptions) => {
    const body = { silent: options.silent, ...(options.reason.trim() ? { reason: options.reason.trim() } : {}) };
    if (await act('withdraw', () => sendJson('POST', `${path}/withdraw`, body))) setIsWithdrawing(false);
  };
  const duplicate = () =>
    void action.run('duplicate', async () => {
      const copy = await sendJson<TContract>('POST', `${path}/duplicate`, row.name ? { name: t('contract.copyName', { name: row.name.slice(0, 980) }) } : {});
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
        actions={<ContractActions view={view} busy={action.busy} handlers={{ onDelete: remove, onSend: openSend, onRemind: remind, onWithdraw: openWithdraw, onDuplicate: duplicate, onDownload: download }} />}
      />
      {isDialogOpen ? null : <ProblemAlert error={action.error} onDismiss={action.dismiss} />}
      {reminded !== undefined && view.status === 'sent' ? <Notice tone="success">{t('contract.reminded', { names: reminded })}</Notice> : null}
      <StatusPanel view={view} />
      <PartiesCard
        contractPath={path}
        views={view.views}
        status={view.status}
        isOrdered={row.party_order_defined}
        busy={action.busy}
        onRemove={removeParty}
        onAdded={() => void data.reload()}
      />
      <div className="split split-document">
        <div className="split-main stack">
          <DetailsCard contract={row} isDraft={isDraft} onSaved={data.reload} />
          <RemindersCard view={view} onSaved={data.reload} />
          <ActivityCard entries={log.data} parties={parties.data} />
          <AttachmentsCard attachments={data.attachments.data} />
        </div>
        <DocumentCard contract={row} isSigned={view.status === 'signed'} />
      </div>
      {isWithdrawing ? <WithdrawDialog views={view.views} isBusy={action.busy === 'withdraw'} error={action.error} onWithdraw={(options) => void withdraw(options)} onClose={() => setIsWithdrawing(false)} /> : null}
      {isSending ? <SendDialog views={view.views} isOrdered={row.party_order_defined} isBusy={action.busy === 'send'} error={action.error} onSend={(options) => void send(options)} onClose={() => setIsSending(false)} /> : null}
    </>
  );
}
