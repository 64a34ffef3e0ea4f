import type { TSigningField } from '../../shared/api/signing';
import { fieldLabel, isMarkField, shownValue, type FieldValue } from './fields';
import type { SigningTranslate } from './i18n';
import type { Mark } from './mark';
import { MarkView } from './mark-view';

type Props = {
  field: TSigningField;
  page: { width: number; height: number };
  value: FieldValue;
  today: string;
  mark: Mark | undefined;
  t: SigningTranslate;
  isCurrent: boolean;
  isLeft: boolean;
  /** Absent on a page that only shows what was signed. */
  onSelect?: (() => void) | undefined;
};

const percent = (part: number, whole: number) => `${(part / whole) * 100}%`;

/**
 * One field of the party over the page where the sender put it. It shows what the field holds
 * (text in proportion to the box, the mark) and, when tapped, becomes the field being edited in
 * the action bar: boxes drawn at the PDF's size are far too small to type into on a phone.
 */
export function FieldOverlay({ field, page, value, today, mark, t, isCurrent, isLeft, onSelect }: Props) {
  const style = {
    left: percent(field.x, page.width),
    top: percent(field.y, page.height),
    width: percent(field.width, page.width),
    height: percent(field.height, page.height),
  };
  const shown = describe(field, value, today, mark, t);
  const className = [
    'field',
    `field-${field.type.toLowerCase()}`,
    isCurrent ? 'is-current' : '',
    isLeft ? 'is-left' : 'is-done',
  ]
    .filter(Boolean)
    .join(' ');
  const content = isMarkField(field) ? (
    mark ? (
      <MarkView mark={mark} isInitials={field.type === 'INITIALS'} />
    ) : onSelect ? (
      <span className="field-prompt">{field.type === 'SIGNATURE' ? t('signHere') : t('initialsHere')}</span>
    ) : (
      <span className="field-prompt">✓ {t('signed')}</span>
    )
  ) : field.type === 'CHECKBOX' ? (
    <span className="field-check" aria-hidden="true">
      {value === true ? '✓' : ''}
    </span>
  ) : (
    <span className="field-text" style={{ fontSize: '58cqh' }}>
      {field.type === 'DATE' ? today : shownValue(field, value)}
    </span>
  );
  if (!onSelect) {
    return (
      <div
        className={className}
        style={style}
        role="img"
        aria-label={`${fieldLabel(field, t)}: ${shown}`}
        id={`field-${field.id}`}
      >
        {content}
      </div>
    );
  }
  return (
    <button
      type="button"
      id={`field-${field.id}`}
      className={className}
      style={style}
      aria-label={`${fieldLabel(field, t)}: ${shown}`}
      aria-current={isCurrent ? 'true' : undefined}
      onClick={onSelect}
    >
      {content}
    </button>
  );
}

function describe(
  field: TSigningField,
  value: FieldValue,
  today: string,
  mark: Mark | undefined,
  t: SigningTranslate,
): string {
  if (isMarkField(field)) return mark ? t('signed') : t('tapToSign');
  if (field.type === 'CHECKBOX') return value === true ? t('checked') : t('unchecked');
  if (field.type === 'DATE') return today;
  const shown = shownValue(field, value);
  return shown.trim() !== '' ? shown : t('notFilled');
}
