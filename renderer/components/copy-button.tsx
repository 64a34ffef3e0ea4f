import { useEffect, useState } from 'react';
import { useT } from '../lib/i18n';
import { Button } from './ui';

function copyWithSelection(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'visually-hidden';
  document.body.append(area);
  area.select();
  const isCopied = document.execCommand('copy');
  area.remove();
  return isCopied;
}

/** Copies `value`; `label` names what for screen readers, `text` is the button's idle text (default: Copy). */
export function CopyButton({
  value,
  label,
  text: idleText,
  title,
}: {
  value: string;
  label: string;
  text?: string;
  title?: string;
}) {
  const t = useT();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      if (navigator.clipboard && window.isSecureContext) await navigator.clipboard.writeText(value);
      else if (!copyWithSelection(value)) throw new Error('copy failed');
      setState('copied');
    } catch {
      setState(copyWithSelection(value) ? 'copied' : 'failed');
    }
  };
  const text =
    state === 'copied'
      ? t('action.copied')
      : state === 'failed'
        ? t('action.copyFailed')
        : (idleText ?? t('action.copy'));
  // The label names what is copied; while "Copied" shows, the visible text is the name (WCAG 2.5.3).
  return (
    <>
      <Button size="small" onClick={() => void copy()} aria-label={state === 'idle' ? label : undefined} title={title}>
        {text}
      </Button>
      <span className="visually-hidden" aria-live="polite">
        {state === 'copied' ? t('action.copied') : ''}
      </span>
    </>
  );
}
