import type { TSigningField } from '../../shared/api/signing';
import { fieldLabel, isMarkField } from './fields';
import type { SigningTranslate } from './i18n';
import type { Mark } from './mark';
import { MarkView } from './mark-view';

type Props = {
  field: TSigningField;
  value: string | boolean;
  today: string;
  mark: Mark | undefined;
  t: SigningTranslate;
  onChange: (value: string | boolean) => void;
  onMakeMark: () => void;
};

/** The field being filled in, at a size a thumb can use, with its label in words. */
export function FieldEditor({ field, value, today, mark, t, onChange, onMakeMark }: Props) {
  const id = `editor-${field.id}`;
  const label = fieldLabel(field, t);
  if (isMarkField(field)) {
    return (
      <div className="editor editor-mark">
        <span className="editor-label">{label}</span>
        {mark && (
          <span className="mark-preview">
            <MarkView mark={mark} isInitials={field.type === 'INITIALS'} />
          </span>
        )}
        <button type="button" className={mark ? 'secondary' : 'primary'} onClick={onMakeMark}>
          {mark ? t('changeSignature') : t('createSignature')}
        </button>
      </div>
    );
  }
  if (field.type === 'CHECKBOX') {
    return (
      <div className="editor editor-check">
        <input
          id={id}
          type="checkbox"
          checked={value === true}
          onChange={(event) => onChange(event.target.checked)}
          aria-required={field.isRequired}
        />
        <label htmlFor={id}>{label}</label>
      </div>
    );
  }
  if (field.type === 'DATE') {
    return (
      <div className="editor">
        <span className="editor-label">{label}</span>
        <p className="muted">{t('dateNote', { date: today })}</p>
      </div>
    );
  }
  return (
    <div className="editor">
      <label className="editor-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        type="text"
        value={typeof value === 'string' ? value : ''}
        maxLength={1000}
        autoComplete={field.type === 'NAME' ? 'name' : 'off'}
        aria-required={field.isRequired}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
