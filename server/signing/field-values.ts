import { createHash } from 'node:crypto';
import type { AnnotationType } from '../../shared/api/enums';
import { MAX_FIELD_FILE_BYTES, type TFieldAnswer } from '../../shared/api/signing';
import { checkTypedAnswer, parseOptions, type FieldFileValue } from '../../shared/field-answers';
import type { AnnotationRow } from '../db/repos/annotations';
import type { PartyRow } from '../db/repos/parties';
import { AppError } from '../core/errors';

/** A file a party attached to an ATTACHMENT field: stored with its answer. */
export type FieldFile = { bytes: Buffer; contentType: string };

/** A party's checked answers: each field's stored value, and the files of its ATTACHMENT fields. */
export type FieldAnswers = { values: Map<number, string | boolean>; files: Map<number, FieldFile> };

// Control characters are exactly what is removed (as from an uploaded attachment's name).
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f]/g;

const TYPED: ReadonlySet<AnnotationType> = new Set(['NUMBER', 'EMAIL', 'DROPDOWN', 'RADIO']);

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
 * each (a number, an e-mail address, one of the options, a file within the limits), required
 * ones filled. Signature marks take no value (the signing name draws them); dates are the day
 * of signing. Every problem is one validation line.
 */
export function readFieldValues(
  annotations: readonly AnnotationRow[],
  party: PartyRow,
  submitted: Readonly<Record<string, TFieldAnswer>>,
  today: string,
): FieldAnswers {
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
  const files = new Map<number, FieldFile>();
  for (const annotation of mine.values()) {
    if (annotation.type === 'SIGNATURE' || annotation.type === 'INITIALS') continue;
    const given = submitted[String(annotation.id)];
    const at = `fields.${annotation.id}`;
    if (annotation.type === 'DATE') {
      values.set(annotation.id, today);
      continue;
    }
    if (annotation.type === 'CHECKBOX') {
      if (given !== undefined && typeof given !== 'boolean') problems.push(`${at}: must be true or false`);
      const checked = given === true;
      if (annotation.inputRequired && !checked) problems.push(`${at}: must be ticked`);
      values.set(annotation.id, checked);
      continue;
    }
    if (annotation.type === 'ATTACHMENT') {
      const read = readFile(annotation, given, at, problems);
      if (read) {
        values.set(annotation.id, JSON.stringify(read.value));
        files.set(annotation.id, read.file);
      }
      continue;
    }
    const asText = annotation.type === 'NUMBER' && typeof given === 'number' ? String(given) : given;
    if (asText !== undefined && typeof asText !== 'string') {
      problems.push(`${at}: must be text`);
      continue;
    }
    const text = (asText ?? String(defaultValue(annotation, party, today) ?? '')).trim();
    if (text === '') {
      if (annotation.inputRequired) problems.push(`${at}: is required`);
      values.set(annotation.id, '');
      continue;
    }
    if (!TYPED.has(annotation.type as AnnotationType)) {
      values.set(annotation.id, text);
      continue;
    }
    const checked = checkTypedAnswer(annotation.type as AnnotationType, parseOptions(annotation.options), text);
    if ('problem' in checked) problems.push(`${at}: ${checked.problem}`);
    else values.set(annotation.id, checked.value);
  }
  if (problems.length > 0) {
    throw new AppError('validation-failed', 'Some fields are not filled in as they must be.', {
      validationErrors: problems,
    });
  }
  return { values, files };
}

/** An ATTACHMENT field's file: decoded only once its encoded size is known to fit. */
function readFile(
  annotation: AnnotationRow,
  given: TFieldAnswer | undefined,
  at: string,
  problems: string[],
): { value: FieldFileValue; file: FieldFile } | undefined {
  if (given === undefined || given === '') {
    if (annotation.inputRequired) problems.push(`${at}: is required: attach a file`);
    return undefined;
  }
  if (typeof given !== 'object') {
    problems.push(`${at}: must be a file: {file_name, content_type, data} with data in base64`);
    return undefined;
  }
  const padding = given.data.endsWith('==') ? 2 : given.data.endsWith('=') ? 1 : 0;
  const size = (given.data.length / 4) * 3 - padding;
  if (given.data.length % 4 !== 0) {
    problems.push(`${at}: the file's data is not valid base64`);
    return undefined;
  }
  if (size > MAX_FIELD_FILE_BYTES) {
    problems.push(`${at}: the file is larger than 2 MiB (2,097,152 bytes)`);
    return undefined;
  }
  const bytes = Buffer.from(given.data, 'base64');
  if (bytes.length === 0) {
    problems.push(`${at}: the file is empty`);
    return undefined;
  }
  const name = given.file_name.normalize('NFC').replace(CONTROLS, '').trim();
  if (name === '' || name === '.' || name === '..') {
    problems.push(`${at}: the file needs a name`);
    return undefined;
  }
  const contentType = given.content_type.toLowerCase();
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return {
    value: { name, content_type: contentType, size: bytes.length, sha256 },
    file: { bytes, contentType },
  };
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
