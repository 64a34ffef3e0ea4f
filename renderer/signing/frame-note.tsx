import type { SigningTranslate } from './i18n';
import { isFramed, useLinkSession } from './link-session';

/**
 * Shown in a frame of another site whose browser refuses the page any storage: the code's
 * session and the party's unfinished work last only as long as the page stays open there. The
 * same link in a window of its own (top level: its own cookie, its own storage) works fully.
 */
export function FrameNote({ t }: { t: SigningTranslate }) {
  const { isStorageBlocked } = useLinkSession();
  if (!isFramed() || !isStorageBlocked) return null;
  return (
    <section className="frame-note" aria-label={t('frameNoteTitle')}>
      <p>{t('frameStorageBlocked')}</p>
      <a className="button secondary" href={window.location.href} target="_blank" rel="noopener">
        {t('openInNewWindow')}
      </a>
    </section>
  );
}
