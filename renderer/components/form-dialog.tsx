import type { FormEvent, ReactNode } from 'react';
import type { ApiError } from '../lib/api';
import { useT } from '../lib/i18n';
import type { FormLabels } from '../lib/problem-lines';
import { Button, Dialog, ProblemAlert } from './ui';

type Props = {
  title: string;
  isOpen?: boolean;
  onClose: () => void;
  onSubmit: (event: FormEvent) => void;
  /** The problem of the last submit, shown above the fields. */
  error: ApiError | undefined;
  isBusy: boolean;
  submitLabel: string;
  isSubmitDisabled?: boolean;
  /** A destructive submit (withdraw, delete) is drawn as such. */
  submitVariant?: 'primary' | 'danger';
  /** The form's labels: validation problems in its words, each field once (see ProblemAlert). */
  labels?: FormLabels;
  children: ReactNode;
};

/** A dialog holding one form: its problem, its fields, Cancel and the submit button. */
export function FormDialog({
  title,
  isOpen = true,
  onClose,
  onSubmit,
  error,
  isBusy,
  submitLabel,
  isSubmitDisabled = false,
  submitVariant = 'primary',
  labels,
  children,
}: Props) {
  const t = useT();
  return (
    <Dialog title={title} isOpen={isOpen} onClose={onClose}>
      <form onSubmit={onSubmit} noValidate>
        <ProblemAlert error={error} labels={labels} />
        {children}
        <div className="form-actions">
          <Button onClick={onClose}>{t('action.cancel')}</Button>
          <Button type="submit" variant={submitVariant} isBusy={isBusy} disabled={isSubmitDisabled}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
