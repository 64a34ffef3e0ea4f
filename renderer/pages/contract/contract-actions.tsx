import { Button } from '../../components/ui';
import { useT } from '../../lib/i18n';
import type { ContractView } from './use-contract';

export type ContractActionHandlers = {
  onDelete: () => void;
  onSend: () => void;
  onRemind: () => void;
  onWithdraw: () => void;
  onDuplicate: () => void;
  onDownload: () => void;
};

/** The header's buttons: each shown for the states the API takes it in, and only then enabled. */
export function ContractActions({
  view,
  busy,
  handlers,
}: {
  view: ContractView;
  busy: string | undefined;
  handlers: ContractActionHandlers;
}) {
  const t = useT();
  const { status } = view;
  const hasAnswering = view.views.some((party) => party.isAnswering);
  // A copy can be made of any contract: to send a changed version, or the same one again.
  const duplicate = (
    <Button onClick={handlers.onDuplicate} isBusy={busy === 'duplicate'}>
      {t('contract.duplicate')}
    </Button>
  );
  if (status === 'draft') {
    return (
      <>
        <Button variant="danger" onClick={handlers.onDelete} isBusy={busy === 'delete'}>
          {t('action.delete')}
        </Button>
        {duplicate}
        <Button
          variant="primary"
          onClick={handlers.onSend}
          disabled={!hasAnswering}
          title={hasAnswering ? undefined : t('contract.sendNeedsParty')}
        >
          {t('contract.send')}
        </Button>
      </>
    );
  }
  if (status === 'sent' || status === 'expired') {
    return (
      <>
        <Button variant="danger" onClick={handlers.onWithdraw}>
          {t('contract.withdraw')}
        </Button>
        {duplicate}
        <Button
          onClick={handlers.onRemind}
          isBusy={busy === 'notify'}
          disabled={status === 'expired'}
          title={status === 'expired' ? t('contract.remindExpired') : undefined}
        >
          {t('contract.remind')}
        </Button>
      </>
    );
  }
  if (status === 'signed') {
    return (
      <>
        {duplicate}
        <Button variant="primary" onClick={handlers.onDownload} isBusy={busy === 'download'}>
          {t('contract.downloadSigned')}
        </Button>
      </>
    );
  }
  return duplicate;
}
