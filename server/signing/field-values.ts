import type { AnnotationRow } from '../db/repos/annotations';
import type { PartyRow } from '../db/repos/parties';
import { AppError } from '../core/errors';

/** What a field holds when the party leaves it as it is (and under auto_sign). */
export function defaultValue(annotation: AnnotationRow, party: PartyRow, today: string): string | boolean | undefined {
  switch (annotation.type) {
    case 'NAME':
      return annotation.content || party.name;
    case 'DATE':
      return today;
    case 'TEXT':
      return annotation.content;
    case 'CHECKBOX':
      return true;
    default:
      return undefined;
  }
}

/**
 * The values a party submits for its own fields, checked: only its fields, the right type for
 * each, required ones filled. Signature marks take no value (the signing name draws them);
 * dates are the day of signing. Every problem is one validation line.
 */
export function readFieldValues(
  annotations: readonly AnnotationRow[],
  party: PartyRow,
  submitted: Readonly<Record<string, string | boolean>>,
  today: string,
): Map<number, string | boolean> {
  const mine = new Map(
    annotations
      .filter((annotation) => annotation.partyId === party.id)
      .map((annotation) => [annotation.id, annotation]),
  );
  const problems: string[] = [];
  for (const key of Object.keys(submitted)) {
    if (!mine.has(Number(key))) problems.push(`fields.${key}: is not one of your fields`);
  }
  const values = new Map<number, string | boolean>();
  for (const annotation of mine.values()) {
    if (annotation.type === 'SIGNATURE' || annotation.type === 'INITIALS') continue;
    const given = submitted[String(annotation.id)];
    if (annotation.type === 'DATE') {
      values.set(annotation.id, today);
      continue;
    }
    if (annotation.type === 'CHECKBOX') {
      if (given !== undefined && typeof given !== 'boolean')
        problems.push(`fields.${annotation.id}: must be true or false`);
      const checked = given === true;
      if (annotation.inputRequired && !checked) problems.push(`fields.${annotation.id}: must be ticked`);
      values.set(annotation.id, checked);
      continue;
    }
    if (given !== undefined && typeof given !== 'string') {
      problems.push(`fields.${annotation.id}: must be text`);
      continue;
    }
    const text = (given ?? String(defaultValue(annotation, party, today) ?? '')).trim();
    if (annotation.inputRequired && text === '') problems.push(`fields.${annotation.id}: is required`);
    values.set(annotation.id, text);
  }
  if (problems.length > 0) {
    throw new AppError('validation-failed', 'Some fields are not filled in as they must be.', {
      validationErrors: problems,
    });
  }
  return values;
}

/** auto_sign: every field of the party takes its default. */
export function defaultValues(
  annotations: readonly AnnotationRow[],
  party: PartyRow,
  today: string,
): Map<number, string | boolean> {
  const values = new Map<number, string | boolean>();
  for (const annotation of annotations) {
    if (annotation.partyId !== party.id) continue;
    const value = defaultValue(annotation, party, today);
    if (value !== undefined) values.set(annotation.id, value);
  }
  return values;
}
