import { useState, type ReactNode } from 'react';
import type { TSigningField, TSigningState } from '../../shared/api/signing';
import { GoTo } from './go-to';
import type { SigningTranslate } from './i18n';
import { PageView } from './page-view';

const ZOOMS = [1, 1.5, 2, 3] as const;

type Props = {
  state: TSigningState;
  t: SigningTranslate;
  /** The overlays of one field (the caller decides how they look and act). */
  renderField: (field: TSigningField, page: { width: number; height: number }) => ReactNode;
  /** The party's fields for "Go to", and what choosing one does. */
  goTo?: { fields: TSigningField[]; onField?: (id: number) => void };
};

/** Every page as an image with the party's fields over it, a zoom, the attachments and the PDF itself. */
export function DocumentView({ state, t, renderField, goTo }: Props) {
  const [zoom, setZoom] = useState<number>(1);
  const pages = state.contract.pages;
  const images = state.contract.pageImages;
  /** Files the party attached to its fields, to download again once signed. */
  const attached = state.fields.filter((field) => field.fileUrl !== null);
  const step = (direction: 1 | -1) =>
    setZoom(
      (current) =>
        ZOOMS[Math.min(ZOOMS.length - 1, Math.max(0, ZOOMS.indexOf(current as (typeof ZOOMS)[number]) + direction))] ??
        1,
    );
  return (
    <div className="document">
      <div className="zoom-bar" role="group" aria-label={t('zoomLevel', { percent: Math.round(zoom * 100) })}>
        <button
          type="button"
          className="icon-button"
          aria-label={t('zoomOut')}
          disabled={zoom === ZOOMS[0]}
          onClick={() => step(-1)}
        >
          −
        </button>
        <span className="zoom-level" aria-live="polite">
          {Math.round(zoom * 100)} %
        </span>
        <button
          type="button"
          className="icon-button"
          aria-label={t('zoomIn')}
          disabled={zoom === ZOOMS.at(-1)}
          onClick={() => step(1)}
        >
          +
        </button>
        <GoTo fields={goTo?.fields ?? []} pages={pages.length} t={t} onField={goTo?.onField} />
        <a className="download-link" href={state.contract.documentUrl} download>
          {t('downloadOriginal')}
        </a>
      </div>
      <div className="pages-scroll">
        <div className="pages" style={{ width: `${zoom * 100}%` }}>
          {images &&
            pages.map((page, index) => (
              <PageView key={index} images={images} page={index + 1} total={pages.length} size={page} zoom={zoom} t={t}>
                {state.fields.filter((field) => field.page === index + 1).map((field) => renderField(field, page))}
              </PageView>
            ))}
        </div>
      </div>
      {(state.attachments.length > 0 || attached.length > 0) && (
        <section className="attachments" aria-labelledby="attachments-title">
          <h2 id="attachments-title">{t('attachments')}</h2>
          <ul>
            {state.attachments.map((attachment) => (
              <li key={attachment.url}>
                <a href={attachment.url} download={attachment.name}>
                  {attachment.name}
                </a>
              </li>
            ))}
            {attached.map((field) => (
              <li key={field.fileUrl} data-testid="attached-file">
                <a href={field.fileUrl ?? undefined} download={field.content}>
                  {field.content}
                </a>{' '}
                <span className="muted">{t('attachedByYou')}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
