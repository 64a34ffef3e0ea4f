import { useEffect, useRef, useState } from 'react';
import { SCRIPT_FACES, type ScriptFace } from '../../shared/signing-page';
import { DrawPad } from './draw-pad';
import type { SigningTranslate } from './i18n';
import { initialsOf, type Mark } from './mark';
import { MarkView } from './mark-view';
import { loadScriptFaces } from './script-faces';
import { UploadPad } from './upload-pad';

type Tab = 'draw' | 'type' | 'upload';
type Props = {
  t: SigningTranslate;
  isOpen: boolean;
  partyName: string;
  hasInitials: boolean;
  onAdopt: (mark: Mark) => void;
  onClose: () => void;
};

/**
 * How the party makes its mark: draw it, type its name in one of three script faces, or upload
 * a picture. Drawn marks may come with drawn initials for INITIALS boxes; without them (and for
 * typed names) the initials are the name's, in the script face.
 */
export function SignatureDialog({ t, isOpen, partyName, hasInitials, onAdopt, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [tab, setTab] = useState<Tab>('draw');
  const [name, setName] = useState(partyName);
  const [face, setFace] = useState<ScriptFace>(SCRIPT_FACES[0]);
  const [drawn, setDrawn] = useState<string>();
  const [drawnInitials, setDrawnInitials] = useState<string>();
  const [uploaded, setUploaded] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [areFacesReady, setFacesReady] = useState(false);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (isOpen && !element.open) {
      element.showModal();
      // The chosen tab, not the name: on a phone a focused text box would raise the keyboard over the pad.
      element.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus();
    }
    if (!isOpen && element.open) element.close();
  }, [isOpen]);

  useEffect(() => {
    if (isOpen && tab === 'type') void loadScriptFaces().then(() => setFacesReady(true));
  }, [isOpen, tab]);

  // A change to what the mark is made of answers the last "do this first".
  const clearing =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      setProblem(undefined);
      set(value);
    };

  const adopt = () => {
    const trimmed = name.trim();
    if (!trimmed) return setProblem(t('typeFirst'));
    if (tab === 'type') return onAdopt({ kind: 'typed', face, name: trimmed });
    if (tab === 'draw')
      return drawn
        ? onAdopt({ kind: 'drawn', name: trimmed, signature: drawn, initials: drawnInitials })
        : setProblem(t('drawFirst'));
    return uploaded ? onAdopt({ kind: 'uploaded', name: trimmed, signature: uploaded }) : setProblem(t('uploadFirst'));
  };

  const tabs: Array<[Tab, string]> = [
    ['draw', t('tabDraw')],
    ['type', t('tabType')],
    ['upload', t('tabUpload')],
  ];
  return (
    <dialog
      ref={dialog}
      className="signature-dialog"
      aria-labelledby="signature-title"
      onClose={onClose}
      onCancel={onClose}
    >
      <form method="dialog" onSubmit={(event) => (event.preventDefault(), adopt())}>
        <h2 id="signature-title">{t('yourSignature')}</h2>
        <p className="muted">{t('signatureHelp')}</p>
        <label htmlFor="signature-name">{t('nameLabel')}</label>
        <input
          id="signature-name"
          type="text"
          autoComplete="name"
          maxLength={200}
          value={name}
          onChange={(event) => clearing(setName)(event.target.value)}
        />
        <div className="tabs" role="tablist" aria-label={t('yourSignature')}>
          {tabs.map(([id, label]) => (
            <button
              key={id}
              type="button"
              role="tab"
              id={`tab-${id}`}
              aria-selected={tab === id}
              aria-controls={`panel-${id}`}
              onClick={() => clearing(setTab)(id)}
            >
              {label}
            </button>
          ))}
        </div>
        {/* Every panel stays mounted, so switching tabs loses no drawing or upload. */}
        <div role="tabpanel" id="panel-draw" aria-labelledby="tab-draw" className="tab-panel" hidden={tab !== 'draw'}>
          <p className="muted">{t('drawHelp')}</p>
          <DrawPad label={t('drawArea')} clearLabel={t('clear')} onChange={clearing(setDrawn)} />
          {hasInitials && (
            <>
              <p className="muted">
                <strong>{t('drawInitials')}</strong> · {t('drawInitialsHelp')}
              </p>
              <DrawPad label={t('drawInitialsArea')} clearLabel={t('clear')} onChange={setDrawnInitials} height={110} />
            </>
          )}
        </div>
        <div role="tabpanel" id="panel-type" aria-labelledby="tab-type" className="tab-panel" hidden={tab !== 'type'}>
          <fieldset className="faces">
            <legend>{t('faceLabel')}</legend>
            {!areFacesReady && (
              <p className="muted" role="status">
                {t('faceLoading')}
              </p>
            )}
            {SCRIPT_FACES.map((option) => (
              <label key={option} className={`face-option${face === option ? ' is-chosen' : ''}`}>
                <input
                  type="radio"
                  name="face"
                  value={option}
                  checked={face === option}
                  onChange={() => setFace(option)}
                />
                <span className="face-sample">
                  <MarkView mark={{ kind: 'typed', face: option, name: name.trim() || partyName }} isInitials={false} />
                </span>
                {hasInitials && (
                  <span className="muted small">
                    {t('initialsOf', { initials: initialsOf(name.trim() || partyName) })}
                  </span>
                )}
              </label>
            ))}
          </fieldset>
        </div>
        <div
          role="tabpanel"
          id="panel-upload"
          aria-labelledby="tab-upload"
          className="tab-panel"
          hidden={tab !== 'upload'}
        >
          <UploadPad t={t} onChange={clearing(setUploaded)} />
        </div>
        {problem && (
          <p className="problem" role="alert">
            {problem}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="primary">
            {t('useSignature')}
          </button>
          <button type="button" className="secondary" onClick={onClose}>
            {t('cancel')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
