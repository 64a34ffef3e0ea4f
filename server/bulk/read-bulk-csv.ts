import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import type { TBulkParty, TBulkPreview, TBulkPreviewRow } from '../../shared/api/bulk-sends';
import { MAX_STRING_LENGTH } from '../../shared/constants';
import { AppError } from '../core/errors';

/** Rows of one bulk send at most: a day's work for an office, and a batch that still previews quickly. */
export const MAX_BULK_ROWS = 1_000;

type Column = { role: number; field: 'name' | 'email' | 'mobile_phone' } | { role: 0; field: 'contract_name' };

const FIELD_WORDS: Record<string, 'name' | 'email' | 'mobile_phone'> = {
  name: 'name',
  namn: 'name',
  email: 'email',
  epost: 'email',
  mail: 'email',
  phone: 'mobile_phone',
  mobile: 'mobile_phone',
  mobilephone: 'mobile_phone',
  telefon: 'mobile_phone',
  mobil: 'mobile_phone',
  mobilnummer: 'mobile_phone',
};
const CONTRACT_NAME_WORDS = new Set(['contractname', 'contract', 'avtalsnamn', 'avtal']);

const wordOf = (text: string) => text.toLowerCase().replace(/[\s_\-.]/g, '');

/** A named role's columns (`Tenant e-mail`, `landlord_name`): the longest role name the cell starts with. */
function namedRoleColumn(word: string, roleNames: readonly string[], roles: number): Column | undefined {
  let best: Column | undefined;
  let bestLength = 0;
  roleNames.slice(0, roles).forEach((name, index) => {
    const key = wordOf(name);
    if (key === '' || key.length <= bestLength || !word.startsWith(key)) return;
    const field = FIELD_WORDS[word.slice(key.length)];
    if (!field) return;
    best = { role: index + 1, field };
    bestLength = key.length;
  });
  return best;
}

/**
 * What a header cell names: `party1_name`, `Party 1 e-mail`, `part2 telefon` (any case, with
 * or without spaces, underscores and hyphens), a named role's `Tenant e-mail`; with one role,
 * plain `name`, `email`, `phone`.
 */
export function columnOf(header: string, roles: number, roleNames: readonly string[] = []): Column | undefined {
  const word = wordOf(header);
  if (CONTRACT_NAME_WORDS.has(word)) return { role: 0, field: 'contract_name' };
  const match = /^(?:party|part|role|roll)(\d{1,2})(.+)$/.exec(word);
  if (match) {
    const field = FIELD_WORDS[match[2]!];
    if (field) return { role: Number(match[1]), field };
  }
  const named = namedRoleColumn(word, roleNames, roles);
  if (named) return named;
  const field = FIELD_WORDS[word];
  return field && roles === 1 ? { role: 1, field } : undefined;
}

/** Comma or semicolon, whichever the header row uses (Excel in Sweden writes semicolons). */
function delimiterOf(text: string): ',' | ';' {
  const header = text.split(/\r?\n/, 1)[0] ?? '';
  const count = (char: string) => header.split(char).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

const isEmail = (value: string) => z.email().safeParse(value).success;
const isPhone = (value: string) => /^\+?[0-9][0-9 ()-]{4,24}$/.test(value) && value.replace(/\D/g, '').length >= 6;

/** A row's problems name the party by its role's name where the template gives one: "Tenant (party 2) e-mail: …". */
function checkParty(party: TBulkParty, roleNames: readonly string[]): string[] {
  const roleName = roleNames[party.role - 1];
  const label = roleName ? `${roleName} (party ${party.role})` : `Party ${party.role}`;
  const lines: string[] = [];
  if (!party.name) lines.push(`${label} name: is empty`);
  if (!party.email && !party.mobile_phone) lines.push(`${label}: needs an e-mail address or a mobile number`);
  if (party.email && !isEmail(party.email)) lines.push(`${label} e-mail: ${party.email} is not an e-mail address`);
  if (party.mobile_phone && !isPhone(party.mobile_phone))
    lines.push(`${label} phone: ${party.mobile_phone} is not a phone number`);
  for (const [field, value] of Object.entries(party)) {
    if (typeof value === 'string' && value.length > MAX_STRING_LENGTH)
      lines.push(`${label} ${field}: longer than ${MAX_STRING_LENGTH} characters`);
  }
  return lines;
}

/**
 * A bulk-send CSV read as a spreadsheet writes it: UTF-8 with or without a byte-order mark,
 * comma or semicolon, a header row naming the columns of each role (`party1_name`,
 * `party1_email`, `party1_phone`, …, or by the roles' names, `Tenant_email`; optionally
 * `contract_name`). A file that cannot be read
 * (no header, unknown columns, a role without its name column) is a 400; a row with bad
 * values is kept with its errors, so the office sees every problem at once.
 */
export function readBulkCsv(
  bytes: Buffer,
  roles: number,
  defaultName: (parties: TBulkParty[]) => string,
  roleNames: readonly string[] = [],
): TBulkPreview {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (text.includes('\uFFFD')) throw fileProblem(['file: is not UTF-8 text (save it as "CSV UTF-8")']);
  const delimiter = delimiterOf(text);
  let records: string[][];
  try {
    records = parse(text, { delimiter, relax_column_count: true, skip_empty_lines: true, trim: true }) as string[][];
  } catch (error) {
    throw fileProblem([`file: ${error instanceof Error ? error.message : 'cannot be read as CSV'}`]);
  }
  const [header, ...body] = records;
  if (!header || header.length === 0) throw fileProblem(['file: has no header row']);
  if (body.length > MAX_BULK_ROWS)
    throw fileProblem([`file: has ${body.length} rows; at most ${MAX_BULK_ROWS} are sent at a time`]);
  const columns = header.map((cell) => columnOf(cell, roles, roleNames));
  const problems = header.flatMap((cell, index) =>
    columns[index]
      ? []
      : [
          `header: "${cell}" is no column SignDesk knows (use party1_name, party1_email, party1_phone, …, contract_name)`,
        ],
  );
  for (const column of columns) {
    if (column && column.role > roles)
      problems.push(
        `header: the template has ${roles} ${roles === 1 ? 'role' : 'roles'}; there is no party ${column.role}`,
      );
  }
  for (let role = 1; role <= roles; role += 1) {
    if (!columns.some((column) => column?.role === role && column.field === 'name'))
      problems.push(`header: no name column for party ${role} (party${role}_name)`);
  }
  if (problems.length > 0) throw fileProblem(problems);

  const rows: TBulkPreviewRow[] = body.map((cells, index) => {
    const parties: TBulkParty[] = Array.from({ length: roles }, (_, role) => ({
      role: role + 1,
      name: '',
      email: '',
      mobile_phone: '',
    }));
    let contractName = '';
    cells.forEach((cell, at) => {
      const column = columns[at];
      if (!column) return;
      if (column.field === 'contract_name') contractName = cell;
      else
        parties[column.role - 1]![column.field] = column.field === 'mobile_phone' ? cell.replace(/[\s()-]/g, '') : cell;
    });
    const errors = cells.length > header.length ? [`has ${cells.length} cells; the header has ${header.length}`] : [];
    errors.push(...parties.flatMap((party) => checkParty(party, roleNames)));
    if (contractName.length > MAX_STRING_LENGTH)
      errors.push(`contract_name: longer than ${MAX_STRING_LENGTH} characters`);
    return { line: index + 2, contract_name: contractName || defaultName(parties), parties, errors };
  });
  const valid = rows.filter((row) => row.errors.length === 0).length;
  return { roles, delimiter, rows, valid, invalid: rows.length - valid };
}

function fileProblem(lines: string[]): AppError {
  return new AppError('validation-failed', 'The CSV file cannot be used as it is; see validation_errors.', {
    validationErrors: lines,
  });
}
