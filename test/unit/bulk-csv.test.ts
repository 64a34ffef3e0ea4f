import { describe, expect, it } from 'vitest';
import { csvCell, csvColumns, sampleCsv } from '../../renderer/lib/bulk-csv';

describe("the bulk send's sample CSV", () => {
  it('names the columns after the roles, party<n> for a role with no name or one a CSV cannot hold', () => {
    expect(csvColumns(2, ['=cmd', '@SUM(A1)'])).toEqual([
      'party1_name',
      'party1_email',
      'party1_phone',
      'party2_name',
      'party2_email',
      'party2_phone',
    ]);
    expect(csvColumns(2, ['Tenant', 'a, b'])).toEqual([
      'Tenant_name',
      'Tenant_email',
      'Tenant_phone',
      'party2_name',
      'party2_email',
      'party2_phone',
    ]);
  });

  it('writes a template name as text a spreadsheet will not run or split', () => {
    const sample = sampleCsv(1, ['Tenant'], '=HYPERLINK("http://evil.example","Open"), Inc');
    expect(sample).toBe(
      'Tenant_name,Tenant_email,Tenant_phone,contract_name\n' +
        'Name 1,party1@example.com,,"\'=HYPERLINK(""http://evil.example"",""Open""), Inc 1"\n',
    );
    expect(sampleCsv(1, [], 'Hyresavtal 2026')).toBe(
      'party1_name,party1_email,party1_phone,contract_name\nName 1,party1@example.com,,Hyresavtal 2026 1\n',
    );
  });

  it('quotes a cell only when it must, and defuses every formula start', () => {
    expect(csvCell('Eva Nordin')).toBe('Eva Nordin');
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    for (const start of ['=', '+', '-', '@', '\t', '\r'])
      expect(csvCell(`${start}1+1`).startsWith(`'${start}`) || csvCell(`${start}1+1`).startsWith(`"'${start}`)).toBe(
        true,
      );
  });
});
