/** What a spreadsheet reads as the start of a formula (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A role's columns start with its name ("Tenant_email"), or party<n> while it has none, or one
 * a CSV cannot hold as a plain header cell (a separator, a quote, a formula start).
 */
const columnPrefix = (index: number, roleNames: readonly string[]) => {
  const name = roleNames[index]?.trim() ?? '';
  return name === '' || /[,;"\n]/.test(name) || FORMULA_START.test(name) ? `party${index + 1}` : name;
};

/** The party columns a template's CSV has, three a role. */
export function csvColumns(roles: number, roleNames: readonly string[]): string[] {
  return Array.from({ length: roles }, (_, index) => {
    const prefix = columnPrefix(index, roleNames);
    return [`${prefix}_name`, `${prefix}_email`, `${prefix}_phone`];
  }).flat();
}

/**
 * A value as one CSV cell that a spreadsheet shows as the text it is: quoted when it holds a
 * separator, a quote or a line break, and with a leading apostrophe when it would start a
 * formula (`=`, `+`, `-`, `@`, a tab or a carriage return), as OWASP advises against CSV injection.
 */
export function csvCell(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[,;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The sample file of a template's bulk send: its header and one example row named after the template. */
export function sampleCsv(roles: number, roleNames: readonly string[], templateName: string): string {
  const header = [...csvColumns(roles, roleNames), 'contract_name'].join(',');
  const example = Array.from({ length: roles }, (_, index) => [
    `Name ${index + 1}`,
    `party${index + 1}@example.com`,
    '',
  ])
    .flat()
    .concat(`${templateName} 1`)
    .map(csvCell)
    .join(',');
  return `${header}\n${example}\n`;
}
