import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { TSigningAccept, TSigningState } from '../../shared/api/signing';
import { ConfirmDialog, RejectDialog } from './answer-dialogs';
import { linkBase } from './bootstrap';
import { DocumentView } from './document-view';
import { hasDraft, restoredValues, useDraftValues } from './draft';
import { FieldEditor } from './field-editor';
import { FieldOverlay } from './field-overlay';
import { jumpTo } from './jump';
import { initialValues, isDone, isMarkField, needsAction, orderFields, type FieldValues } from './fields';
import type { SigningTranslate } from './i18n';
import { toAcceptMark, type Mark } from './mark';
import { SignatureDialog } from './signature-dialog';

type Props = {
  state: TSigningState;
  t: SigningTranslate;
  isBusy: boolean;
  /** The server's refusal of the last answer, in its words. */
  problem: string | undefined;
  /** The mark made on this page (kept once signed, to show it on the document). */
  mark: Mark | undefined;
  onMark: (mark: Mark) => void;
  onAccept: (body: TSigningAccept) => void;
  onReject: (cause: string) => void;
  /** Shown in the panel instead of the answer controls: the page after the party answered, or for a viewer. */
  status?: ReactNode;
  /** One more answer control after sign and reject (handing the turn to someone else). */
  extraAction?: ReactNode;
};

/**
 * The document with the party's fields, and the action bar that guides through them: how many
 * are left, previous and next, the field being filled in, then sign (or approve) or reject. On a
 * phone the bar sticks to the bottom of the screen; on a wide screen it is the right column.
 */
export function SigningView({
  state,
  t,
  isBusy,
  problem,
  mark,
  onMark,
  onAccept,
  onReject,
  status,
  extraAction,
}: Props) {
  const isAnswering = !status;
  const isSigner = state.party.signType === 'DEFAULT';
  const ordered = useMemo(() => orderFields(state.fields), [state.fields]);
  const [values, setValues] = useState<FieldValues>(() => restoredValues(linkBase(), state, initialValues(state)));
  // Read before this visit's first save: work kept from an earlier visit is said so.
  const [isRestored] = useState(() => hasDraft(linkBase(), state));
  useDraftValues(linkBase(), state, values, isAnswering);
  const [currentId, setCurrentId] = useState<number>();
  const [dialog, setDialog] = useState<'mark' | 'confirm' | 'reject'>();
  const [wantsToSign, setWantsToSign] = useState(false);
  const [isLeftShown, setLeftShown] = useState(false);

  const actionable = ordered.filter((field) => needsAction(field, isSigner));
  const left = actionable.filter((field) => !isDone(field, values, mark !== undefined));
  const current = ordered.find((field) => field.id === currentId);
  const hasInitials = state.fields.some((field) => field.type === 'INITIALS');

  const select = (id: number | undefined) => {
    setCurrentId(id);
    if (id === undefined) return;
    jumpTo(document.getElementById(`field-${id}`));
  };
  const step = (direction: 1 | -1) => {
    if (ordered.length === 0) return;
    const index = ordered.findIndex((field) => field.id === currentId);
    const next =
      index === -1 ? (direction === 1 ? 0 : ordered.length - 1) : (index + direction + ordered.length) % ordered.length;
    select(ordered[next]?.id);
  };

  // When the party can first answer (bench/signing-page.ts reads this mark).
  useEffect(() => {
    if (isAnswering && !performance.getEntriesByName('signing-ready').length) performance.mark('signing-ready');
  }, [isAnswering]);

  // A <dialog> reports its closing after the fact (Escape, Cancel, or our own close when another
  // opens): only the one still current may close, and cancelling the mark stops the way to signing.
  const closeDialog = (which: 'mark' | 'confirm' | 'reject') =>
    setDialog((current) => {
      if (current !== which) return current;
      if (which === 'mark') setWantsToSign(false);
      return undefined;
    });

  const startSigning = () => {
    const firstLeft = left.find((field) => !isMarkField(field));
    if (firstLeft) {
      setLeftShown(true);
      return select(firstLeft.id);
    }
    if (isSigner && !mark) {
      setWantsToSign(true);
      return setDialog('mark');
    }
    setDialog('confirm');
  };

  // The mark was the last thing missing (startSigning asked for it only then): on the way to
  // signing, go on to the last step by itself.
  const adoptMark = (made: Mark) => {
    onMark(made);
    setDialog(wantsToSign ? 'confirm' : undefined);
    setWantsToSign(false);
  };

  const accept = () => {
    setDialog(undefined);
    const fields = Object.fromEntries(
      state.fields
        .filter((field) => !isMarkField(field) && field.type !== 'DATE')
        .map((field) => [String(field.id), values[String(field.id)] ?? '']),
    );
    onAccept({
      fields,
      signatureName: mark?.name ?? state.party.name,
      ...(isSigner && mark ? { mark: toAcceptMark(mark) } : {}),
    });
  };

  // Derived, never stored: the note goes as soon as the last field is filled in.
  // Marks are made by signing itself, so only the fields to fill in count here.
  const leftToFill = left.filter((field) => !isMarkField(field)).length;
  const note = isLeftShown && leftToFill > 0 ? t('fillRequired', { n: leftToFill }) : undefined;
  return (
    <main className="layout">
      <header className="document-header">
        <p className="eyebrow">{state.officeName ? t('sentBy', { office: state.officeName }) : t('sentByUnnamed')}</p>
        <h1>{state.contract.name}</h1>
        {state.party.identityNumber && (
          <p className="signing-as">
            {t('identityLine', { name: state.party.name, identityNumber: state.party.identityNumber })}
          </p>
        )}
        {isRestored && isAnswering && <p className="signing-as draft-kept">{t('draftKept')}</p>}
      </header>
      <DocumentView
        state={state}
        t={t}
        goTo={{ fields: isAnswering ? actionable : [], onField: isAnswering ? select : undefined }}
        renderField={(field, page) => (
          <FieldOverlay
            key={field.id}
            field={field}
            page={page}
            value={values[String(field.id)] ?? ''}
            today={state.today}
            mark={mark}
            t={t}
            isCurrent={isAnswering && field.id === currentId}
            isLeft={isAnswering && left.includes(field)}
            onSelect={
              isAnswering
                ? () => (isMarkField(field) && isSigner ? (select(field.id), setDialog('mark')) : select(field.id))
                : undefined
            }
          />
        )}
      />
      <section
        className="action-bar"
        aria-label={isAnswering ? (isSigner ? t('sign') : t('approve')) : state.contract.name}
      >
        {status ?? (
          <>
            <div className="guide">
              <button
                type="button"
                className="icon-button"
                aria-label={t('previousField')}
                disabled={ordered.length === 0}
                onClick={() => step(-1)}
              >
                ‹
              </button>
              <p className="progress" aria-live="polite">
                {actionable.length === 0
                  ? t('noFields')
                  : left.length === 0
                    ? t('fieldsDone', { total: actionable.length })
                    : t('fieldsLeft', { left: left.length, total: actionable.length })}
              </p>
              <button
                type="button"
                className="icon-button"
                aria-label={t('nextField')}
                disabled={ordered.length === 0}
                onClick={() => step(1)}
              >
                ›
              </button>
            </div>
            {current && (
              <FieldEditor
                field={current}
                value={values[String(current.id)] ?? ''}
                today={state.today}
                mark={mark}
                t={t}
                onChange={(value) => setValues((all) => ({ ...all, [String(current.id)]: value }))}
                onMakeMark={() => setDialog('mark')}
              />
            )}
            {(note ?? problem) && (
              <p className="problem" role="alert">
                {note ?? problem}
              </p>
            )}
            <div className="actions">
              <button type="button" className="primary" disabled={isBusy} onClick={startSigning}>
                {isBusy ? t('signing') : isSigner ? t('sign') : t('approve')}
              </button>
              <button type="button" className="secondary" disabled={isBusy} onClick={() => setDialog('reject')}>
                {t('reject')}
              </button>
              {extraAction}
            </div>
          </>
        )}
      </section>
      {isAnswering && (
        <>
          <SignatureDialog
            t={t}
            isOpen={dialog === 'mark'}
            partyName={mark?.name ?? state.party.name}
            hasInitials={hasInitials}
            onAdopt={adoptMark}
            onClose={() => closeDialog('mark')}
          />
          <ConfirmDialog
            t={t}
            isOpen={dialog === 'confirm'}
            isApprover={!isSigner}
            summary={
              <p>
                {isSigner
                  ? t('signingAs', {
                      document: state.contract.name,
                      name: mark?.name ?? state.party.name,
                      date: state.today,
                    })
                  : t('approvingOn', { document: state.contract.name, date: state.today })}
              </p>
            }
            onConfirm={accept}
            onClose={() => closeDialog('confirm')}
          />
          <RejectDialog
            t={t}
            isOpen={dialog === 'reject'}
            onReject={(cause) => (setDialog(undefined), onReject(cause))}
            onClose={() => closeDialog('reject')}
          />
        </>
      )}
    </main>
  );
}
