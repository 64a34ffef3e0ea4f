import type { TFieldAnswer, TSigningField, TSigningState } from '../../shared/api/signing';
import { checkTypedAnswer } from '../../shared/field-answers';
import type { SigningTranslate } from './i18n';

export type FieldValue = TFieldAnswer;
export type FieldValues = Record<string, FieldValue>;

export const isMarkField = (field: TSigningField) => field.type === 'SIGNATURE' || field.type === 'INITIALS';

/** Types whose answer is checked as it is typed or chosen. */
const CHECKED_TYPES = new Set<TSigningField['type']>(['NUMBER', 'EMAIL', 'DROPDOWN', 'RADIO']);

/** What a field holds before the party touches it (dates are the office's date, filled in by the server). */
export function initialValues(state: TSigningState): FieldValues {
  return Object.fromEntries(
    state.fields.map((field) => {
      if (field.type === 'CHECKBOX') return [String(field.id), field.content === 'true'];
      if (field.type === 'NAME') return [String(field.id), field.content || state.party.name];
      if (field.type === 'ATTACHMENT') return [String(field.id), ''];
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

/** What is wrong with a typed or chosen answer (the server checks the same), or undefined. */
export function answerProblem(field: TSigningField, value: FieldValue | undefined, t: SigningTranslate) {
  if (!CHECKED_TYPES.has(field.type) || typeof value !== 'string' || value.trim() === '') return undefined;
  const checked = checkTypedAnswer(field.type, field.options, value.trim());
  if (!('problem' in checked)) return undefined;
  return field.type === 'NUMBER' ? t('notANumber') : field.type === 'EMAIL' ? t('notAnEmail') : t('notAnOption');
}

export function isDone(field: TSigningField, values: FieldValues, hasMark: boolean): boolean {
  if (isMarkField(field)) return hasMark;
  const value = values[String(field.id)];
  if (field.type === 'CHECKBOX') return value === true;
  if (field.type === 'DATE') return true;
  if (field.type === 'ATTACHMENT') return typeof value === 'object';
  if (typeof value !== 'string' || value.trim() === '') return false;
  if (!CHECKED_TYPES.has(field.type)) return true;
  return !('problem' in checkTypedAnswer(field.type, field.options, value.trim()));
}

/** The field's name as the office gave it (its label), else its kind. */
export function fieldName(field: TSigningField, t: SigningTranslate): string {
  if (field.label.trim() !== '') return field.label.trim();
  const names: Record<TSigningField['type'], string> = {
    SIGNATURE: t('signHere'),
    INITIALS: t('initialsHere'),
    NAME: t('fieldName'),
    DATE: t('fieldDate'),
    TEXT: t('fieldText'),
    CHECKBOX: t('checkbox'),
    NUMBER: t('fieldNumber'),
    EMAIL: t('fieldEmail'),
    DROPDOWN: t('fieldDropdown'),
    RADIO: t('fieldRadio'),
    ATTACHMENT: t('fieldAttachment'),
  };
  return names[field.type];
}

export function fieldLabel(field: TSigningField, t: SigningTranslate): string {
  return `${fieldName(field, t)} (${field.isRequired || isMarkField(field) ? t('required') : t('optional')})`;
}

/** What a field holds, in words (the overlay shows it; screen readers read it). */
export function shownValue(field: TSigningField, value: FieldValue | undefined): string {
  if (value !== null && typeof value === 'object') return value.file_name;
  if (field.type === 'ATTACHMENT' && typeof value === 'string' && value === '') return field.content;
  return value === undefined ? '' : String(value);
}
