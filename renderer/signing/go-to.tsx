import { useState } from 'react';
import type { TSigningField } from '../../shared/api/signing';
import { fieldLabel } from './fields';
import type { SigningTranslate } from './i18n';
import { jumpTo } from './jump';

type Props = {
  /** The party's fields, in the order the guide walks them. */
  fields: TSigningField[];
  pages: number;
  t: SigningTranslate;
  /** A field was chosen (the page makes it the current one); without it, fields are only shown. */
  onField?: (id: number) => void;
};

/**
 * "Go to": one native list of the party's fields (with their pages) and of the pages, so a long
 * contract is crossed in one step: only the page chosen is fetched (jump.ts). A native <select>
 * is what phones, screen readers and keyboards handle best.
 */
export function GoTo({ fields, pages, t, onField }: Props) {
  const [chosen, setChosen] = useState('');
  if (pages < 2 && fields.length < 2) return null;
  const go = (value: string) => {
    setChosen(value);
    const [kind, id] = value.split(':');
    if (kind === 'field' && onField) return onField(Number(id));
    if (kind === 'field') return jumpTo(document.getElementById(`field-${id}`));
    jumpTo(document.querySelector<HTMLElement>(`.page-frame[data-page="${Number(id)}"]`), 'start');
  };
  return (
    <select className="go-to" aria-label={t('goTo')} value={chosen} onChange={(event) => go(event.target.value)}>
      <option value="" disabled>
        {t('goTo')}
      </option>
      {fields.length > 0 && (
        <optgroup label={t('goToFields')}>
          {fields.map((field) => (
            <option key={field.id} value={`field:${field.id}`}>
              {t('fieldOnPage', { field: fieldLabel(field, t), page: field.page })}
            </option>
          ))}
        </optgroup>
      )}
      <optgroup label={t('goToPages')}>
        {Array.from({ length: pages }, (_, index) => (
          <option key={index} value={`page:${index + 1}`}>
            {t('pageOf', { page: index + 1, total: pages })}
          </option>
        ))}
      </optgroup>
    </select>
  );
}
