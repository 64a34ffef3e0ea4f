import type { TSigningField, TSigningState } from '../../shared/api/signing';
import type { SigningTranslate } from './i18n';

export type FieldValues = Record<string, string | boolean>;

export const isMarkField = (field: TSigningField) => field.type === 'SIGNATURE' || field.type === 'INITIALS';

/** What a field holds before the party touches it (dates are the office's date, filled in by the server). */
export function initialValues(state: TSigningState): FieldValues {
  return Object.fromEntries(
    state.fields.map((field) => {
      if (field.type === 'CHECKBOX') return [String(field.id), field.content === 'true'];
      if (field.type === 'NAME') return [String(field.id), field.content || state.party.name];
      return [String(field.id), field.content];
    }),
  );
}

/** Reading order: page by page, top to bottom, left to right. */
export function orderFields(fields: readonly TSigningField[]): TSigningField[] {
  return [...fields].sort((a, b) => a.page - b.page || a.y - b.y || a.x - b.x);
}

/**
 * Whether the party must do something about the field before signing: its signature and
 * initials boxes (a signer's mark goes there), and required text and check boxes. Dates fill
 * themselves; optional fields may stay as they are.
 */
export function needsAction(field: TSigningField, isSigner: boolean): boolean {
  if (isMarkField(field)) return isSigner;
  return field.isRequired && field.type !== 'DATE';
}

export function isDone(field: TSigningField, values: FieldValues, hasMark: boolean): boolean {
  if (isMarkField(field)) return hasMark;
  const value = values[String(field.id)];
  if (field.type === 'CHECKBOX') return value === true;
  if (field.type === 'DATE') return true;
  return typeof value === 'string' && value.trim() !== '';
}

export function fieldLabel(field: TSigningField, t: SigningTranslate): string {
  const names: Record<TSigningField['type'], string> = {
    SIGNATURE: t('signHere'),
    INITIALS: t('initialsHere'),
    NAME: t('fieldName'),
    DATE: t('fieldDate'),
    TEXT: t('fieldText'),
    CHECKBOX: t('checkbox'),
  };
  return `${names[field.type]} (${field.isRequired || isMarkField(field) ? t('required') : t('optional')})`;
}
