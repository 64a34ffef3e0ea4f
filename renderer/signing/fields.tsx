import type { TSigningField } from '../../shared/api/signing';
import type { Strings } from './i18n';

export type FieldValues = Record<string, string | boolean>;

/** What a field holds before the party touches it. */
export function initialValue(field: TSigningField, partyName: string, today: string): string | boolean {
  if (field.type === 'CHECKBOX') return field.content === 'true';
  if (field.type === 'NAME') return field.content || partyName;
  if (field.type === 'DATE') return field.content || today;
  return field.content;
}

export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('');
}

/** Required fields still empty; signature marks are made by signing itself. */
export function missingFields(fields: TSigningField[], values: FieldValues): TSigningField[] {
  return fields.filter((field) => {
    if (!field.isRequired || field.type === 'SIGNATURE' || field.type === 'INITIALS') return false;
    const value = values[String(field.id)];
    return field.type === 'CHECKBOX' ? value !== true : typeof value !== 'string' || value.trim() === '';
  });
}

type Props = {
  field: TSigningField;
  page: { width: number; height: number };
  value: string | boolean;
  signatureName: string;
  text: Strings;
  isInvalid: boolean;
  onChange: (value: string | boolean) => void;
};

const percent = (part: number, whole: number) => `${(part / whole) * 100}%`;

/** One annotation of this party, laid over the page where the sender put it. */
export function FieldOverlay({ field, page, value, signatureName, text, isInvalid, onChange }: Props) {
  const style = {
    left: percent(field.x, page.width),
    top: percent(field.y, page.height),
    width: percent(field.width, page.width),
    height: percent(field.height, page.height),
  };
  const label = `${fieldLabel(field, text)}${field.isRequired ? ` (${text.required})` : ''}`;
  const id = `field-${field.id}`;
  if (field.type === 'SIGNATURE' || field.type === 'INITIALS') {
    const mark = field.type === 'SIGNATURE' ? signatureName : initialsOf(signatureName);
    return (
      <div className="field field-signature" style={style} role="img" aria-label={`${label}: ${mark || '…'}`}>
        <span className="signature-mark">{mark || (field.type === 'SIGNATURE' ? text.signHere : text.initialsHere)}</span>
      </div>
    );
  }
  if (field.type === 'CHECKBOX') {
    return (
      <label className={`field field-checkbox${isInvalid ? ' is-invalid' : ''}`} style={style} htmlFor={id}>
        <input id={id} type="checkbox" checked={value === true} onChange={(event) => onChange(event.target.checked)} aria-label={label} aria-invalid={isInvalid} />
      </label>
    );
  }
  return (
    <input
      id={id}
      className={`field field-text${isInvalid ? ' is-invalid' : ''}`}
      style={style}
      type="text"
      value={typeof value === 'string' ? value : ''}
      maxLength={1000}
      readOnly={field.type === 'DATE'}
      aria-label={label}
      aria-invalid={isInvalid}
      aria-required={field.isRequired}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

function fieldLabel(field: TSigningField, text: Strings): string {
  const names: Record<TSigningField['type'], string> = {
    SIGNATURE: text.signHere,
    INITIALS: text.initialsHere,
    NAME: text.fieldName,
    DATE: text.fieldDate,
    TEXT: text.fieldText,
    CHECKBOX: text.checkbox,
  };
  return names[field.type];
}
