import { useState } from 'react';
import { isAwaited } from '../lib/party-state';
import { useConfirm } from '../components/confirm';
import type { TParty } from '../../shared/api/parties';
import { Button, Loading, Notice, PageHeader, ProblemAlert } from '../components/ui';
import { downloadFile, sendJson } from '../lib/api';
import { useT } from '../lib/i18n';
import { Link, useRouter } from '../lib/router';
import { useAction } from '../lib/use-action';
import { ActivityCard } from './contract/activity-card';
import { DetailsCard } from './contract/details-card';
import { AttachmentsCard } from './contract/attachments-card';
import { DocumentCard } from './contract/document-card';
import { EvidenceCard, TimestampPendingNotice } from './contract/evidence-card';
import { FieldsCard } from './contract/fields-card';
import { PartiesCard } from './contract/parties-card';
import { SendDialog, type SendOptions } from './contract/send-dialog';
import { StatusPanel } from './contract/status-panel';
import { useContract, viewContract, type ContractView } from './contract/use-contract';
import { useSignedIn } from '../lib/session';

/** The header's buttons: each shown for the states the API takes it in, and only then enabled. */
function ContractActions({ view, busy, onDelete, onSend, onRemind, onDownload }: { view: ContractView; busy: string | undefined; onDelete: () => void; onSend: () => void; onRemind: () => void; onDownload: () => void }) {
  const t = useT();
  const { status } = view;
  const hasAnswering = view.views.some((party) => party.isAnswering);
  if (status === 'draft') {
    return (
      <>
        <Button variant="danger" onClick={onDelete} isBusy={busy === 'delete'}>
          {t('action.delete')}
        </Button>
        <Button variant="primary" onClick={onSend} disabled={!hasAnswering} title={hasAnswering ? undefined : t('contract.sendNeedsParty')}>
          {t('contract.send')}
        </Button>
      </>
    );
  }
  if (status === 'sent' || status === 'expired') {
    return (
      <Button onClick={onRemind} isBusy={busy === 'notify'} disabled={status === 'expired'} title={status === 'expired' ? t('contract.remindExpired') : undefined}>
        {t('contract.remind')}
      </Button>
    );
  }
  if (status === 'signed') {
    return (
      <Button variant="primary" onClick={onDownload} isBusy={busy === 'download'}>
        {t('contract.downloadSigned')}
      </Button>
    );
  }
  return null;
}

export function ContractPage({ id }: { id: string }) {
  const t = useT();
  const { navigate } = useRouter();
  const session = useSignedIn();
  const data = useContract(id);
  const { path, contract, parties, log } = data;
  const action = useAction();
  const confirm = useConfirm();
  const [isSending, setIsSending] = useState(false);
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
    if (!(await confirm({ title: t('confirm.title'), body: t('contract.confirmDelete', { name: title }), confirmLabel: t('action.delete') }))) return;
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
    if (await confirm({ title: t('confirm.title'), body: t('contract.confirmRemoveParty', { name: party.name }), confirmLabel: t('action.delete') })) void act(party.self, () => sendJson('DELETE', party.self));
  };
  const openSend = () => {
    action.dismiss();
    setIsSending(true);
  };
  const download = () => void action.run('download', () => downloadFile(`${path}/signed_pdf`, 'application/pdf', `${title}.pdf`));

  return (
    <>
      <PageHeader
        title={title}
        back={<Link to="/contracts">← {t('nav.contracts')}</Link>}
        actions={<ContractActions view={view} busy={action.busy} onDelete={remove} onSend={openSend} onRemind={remind} onDownload={download} />}
      />
      {isSending ? null : <ProblemAlert error={action.error} onDismiss={action.dismiss} />}
      {reminded !== undefined && view.status === 'sent' ? <Notice tone="success">{t('contract.reminded', { names: reminded })}</Notice> : null}
      <StatusPanel view={view} />
      <TimestampPendingNotice contract={row} />
      <PartiesCard
        contractPath={path}
        views={view.views}
        status={view.status}
        isOrdered={row.party_order_defined}
        busy={action.busy}
        onRemove={removeParty}
        onAdded={() => void data.reload()}
      />
      {/* Until signed, the document is shown with its fields (placed here while a draft); once signed, the sealed PDF. */}
      {view.status === 'signed' ? null : <FieldsCard contract={row} parties={parties.data} isDraft={isDraft} />}
      <div className={view.status === 'signed' ? 'split split-document' : 'stack'}>
        <div className="split-main stack">
          <DetailsCard contract={row} isDraft={isDraft} onSaved={data.reload} />
          <AttachmentsCard contractPath={path} attachments={data.attachments.data} isDraft={isDraft} onChanged={data.reload} />
          <ActivityCard entries={log.data} />
          {isDraft ? null : <EvidenceCard path={path} contract={row} log={log.data ?? []} isSigned={view.status === 'signed'} />}
        </div>
        {view.status === 'signed' ? <DocumentCard contract={row} isSigned /> : null}
      </div>
      {isSending ? <SendDialog views={view.views} isOrdered={row.party_order_defined} isBusy={action.busy === 'send'} error={action.error} onSend={(options) => void send(options)} onClose={() => setIsSending(false)} /> : null}
    </>
  );
}
