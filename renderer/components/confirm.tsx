import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { useT } from '../lib/i18n';
import { Button, Dialog } from './ui';

type Question = { title: string; body: ReactNode; confirmLabel: string; tone?: 'danger' | 'primary' };
type Ask = (question: Question) => Promise<boolean>;

const ConfirmContext = createContext<Ask>(() => Promise.resolve(false));

/**
 * The one confirmation of the admin UI, in its own dialog (not the browser's `confirm()`): it
 * speaks the UI's language, is styled and read out like the rest, and returns focus to the button
 * that asked.
 */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const t = useT();
  const [open, setOpen] = useState<Question & { answer: (yes: boolean) => void }>();
  const ask = useCallback<Ask>((question) => new Promise((resolve) => setOpen({ ...question, answer: resolve })), []);
  const close = (yes: boolean) => {
    open?.answer(yes);
    setOpen(undefined);
  };
  return (
    <ConfirmContext.Provider value={ask}>
      {children}
      <Dialog
        title={open?.title ?? ''}
        isOpen={open !== undefined}
        onClose={() => close(false)}
        footer={
          <>
            <Button onClick={() => close(false)}>{t('action.cancel')}</Button>
            <Button variant={open?.tone ?? 'danger'} onClick={() => close(true)}>
              {open?.confirmLabel}
            </Button>
          </>
        }
      >
        <div className="confirm-body">{open?.body}</div>
      </Dialog>
    </ConfirmContext.Provider>
  );
}

export const useConfirm = () => useContext(ConfirmContext);
