import { useState } from 'react';
import { CheckboxField, TextAreaField } from '../../components/fields';
import { FormDialog } from '../../components/form-dialog';
import type { ApiError } from '../../lib/api';
import { useT } from '../../lib/i18n';
import type { PartyView } from '../../lib/party-state';

export type WithdrawOptions = { reason: string; silent: boolean };

type Props = {
  views: PartyView[];
  isBusy: boolean;
  error: ApiError | undefined;
  onWithdraw: (options: WithdrawOptions) => void;
  onClose: () => void;
};

/** Withdrawing a sent contract: who hears of it, an optional reason, and that it cannot be undone. */
export function WithdrawDialog({ views, isBusy, error, onWithdraw, onClose }: Props) {
  const t = useT();
  const [options, setOptions] = useState<WithdrawOptions>({ reason: '', silent: false });
  // Those who were sent the contract: every party not still waiting for its turn.
  const told = views
    .filter((view) => view.state !== 'waiting' && view.party.delivery_method !== 'NONE')
    .map((view) => view.party.name);
  return (
    <FormDialog
      title={t('withdraw.title')}
      onClose={onClose}
      onSubmit={(event) => {
        event.preventDefault();
        onWithdraw(options);
      }}
      error={error}
      isBusy={isBusy}
      submitLabel={t('withdraw.confirm')}
      submitVariant="danger"
    >
      <p>{t('withdraw.lead')}</p>
      <TextAreaField
        label={t('withdraw.reason')}
        hint={t('withdraw.reasonHint')}
        value={options.reason}
        onValue={(reason) => setOptions({ ...options, reason })}
        rows={3}
        maxLength={1000}
      />
      <CheckboxField
        label={t('withdraw.silent')}
        hint={
          options.silent || told.length === 0
            ? t('withdraw.silentHint')
            : t('withdraw.told', { names: told.join(', ') })
        }
        checked={options.silent}
        onChecked={(silent) => setOptions({ ...options, silent })}
      />
    </FormDialog>
  );
}
