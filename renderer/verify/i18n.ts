import type { VerifyVerdict } from '../../shared/api/verify';

export type VerifyLanguage = 'en' | 'sv';

const en = {
  title: 'Verify a signed PDF',
  intro:
    'Drop a PDF that was signed with SignDesk here to learn whether this office sealed it and whether anything changed since. The file is checked on this server and is not kept.',
  drop: 'Drop the PDF here, or choose a file',
  choose: 'Choose a PDF',
  checking: 'Checking…',
  another: 'Check another PDF',
  failed: 'The PDF could not be checked.',
  tooLarge: (mb: number) => `The file is larger than ${mb} MB.`,
  verdicts: {
    intact: 'Sealed by this office, and unchanged',
    changed: 'Sealed by this office, but changed afterwards',
    broken: 'Changed: the seal no longer holds',
    'unknown-seal': 'Sealed with this office’s certificate, but unknown here',
    'not-sealed-here': 'Not sealed by this office',
    'not-pdf': 'This is not a PDF',
  } satisfies Record<VerifyVerdict, string>,
  explanations: {
    intact:
      'Every byte this office sealed is in the file as it was, and nothing was added but this office’s own timestamp.',
    changed: (bytes: number) =>
      bytes > 0
        ? `The sealed document is intact, but ${bytes.toLocaleString('en')} bytes were added after the seal (a later change, such as an edit or another signature). The sealed version is the part before them.`
        : 'Every byte the seal signs is intact, but the seal’s signature container differs from the copy this office issued.',
    broken:
      'The file carries this office’s seal, but the bytes it seals were changed afterwards. Do not rely on this copy.',
    'unknown-seal': 'The seal is valid, but no contract of this office has exactly these bytes.',
    'not-sealed-here': 'No seal of this office is in this file. It may have been sealed elsewhere, or not at all.',
    'not-pdf': 'Choose a PDF file.',
  },
  contract: 'Contract',
  parties: 'Parties',
  signedAt: 'Signed by everyone',
  seal: 'Seal certificate',
  fingerprint: 'Certificate SHA-256',
  timestamps: 'Trusted timestamps',
  noTimestamp: 'No trusted timestamp: the time of signing rests only on the clock of the office’s PC.',
  timestampKinds: { signature: 'In the seal', document: 'Document timestamp' },
  valid: 'valid',
  invalid: 'does not hold',
  fileSha256: 'SHA-256 of this file',
  newerCopy: 'The office holds a newer copy of this PDF with a trusted timestamp added; ask for it.',
  otherSignatures: (n: number) => `${n} other signature${n === 1 ? '' : 's'} in the file (not this office’s).`,
  roles: { DEFAULT: 'Signer', APPROVER: 'Approver', VIEWER: 'Viewer' } as Record<string, string>,
  language: 'Svenska',
};

const sv: typeof en = {
  title: 'Kontrollera en signerad PDF',
  intro:
    'Släpp en PDF som signerats med SignDesk här för att se om detta kontor har förseglat den och om något har ändrats sedan dess. Filen kontrolleras på denna server och sparas inte.',
  drop: 'Släpp PDF-filen här, eller välj en fil',
  choose: 'Välj en PDF',
  checking: 'Kontrollerar…',
  another: 'Kontrollera en annan PDF',
  failed: 'PDF-filen kunde inte kontrolleras.',
  tooLarge: (mb: number) => `Filen är större än ${mb} MB.`,
  verdicts: {
    intact: 'Förseglad av detta kontor och oförändrad',
    changed: 'Förseglad av detta kontor, men ändrad i efterhand',
    broken: 'Ändrad: förseglingen håller inte längre',
    'unknown-seal': 'Förseglad med detta kontors certifikat, men okänd här',
    'not-sealed-here': 'Inte förseglad av detta kontor',
    'not-pdf': 'Detta är inte en PDF',
  },
  explanations: {
    intact:
      'Varje byte som kontoret förseglade finns kvar i filen som den var, och inget har lagts till utom kontorets egen tidsstämpel.',
    changed: (bytes: number) =>
      bytes > 0
        ? `Det förseglade dokumentet är intakt, men ${bytes.toLocaleString('sv')} byte har lagts till efter förseglingen (en senare ändring, till exempel en redigering eller en annan signatur). Den förseglade versionen är delen före dem.`
        : 'Varje byte som förseglingen signerar är intakt, men förseglingens signaturbehållare skiljer sig från kopian som kontoret utfärdade.',
    broken:
      'Filen bär kontorets försegling, men de byte den förseglar har ändrats i efterhand. Lita inte på denna kopia.',
    'unknown-seal': 'Förseglingen är giltig, men inget av kontorets avtal har exakt dessa byte.',
    'not-sealed-here':
      'Filen har ingen försegling från detta kontor. Den kan ha förseglats någon annanstans, eller inte alls.',
    'not-pdf': 'Välj en PDF-fil.',
  },
  contract: 'Avtal',
  parties: 'Parter',
  signedAt: 'Signerat av alla',
  seal: 'Sigillcertifikat',
  fingerprint: 'Certifikatets SHA-256',
  timestamps: 'Betrodda tidsstämplar',
  noTimestamp: 'Ingen betrodd tidsstämpel: tidpunkten för signeringen vilar enbart på klockan i kontorets dator.',
  timestampKinds: { signature: 'I förseglingen', document: 'Dokumenttidsstämpel' },
  valid: 'giltig',
  invalid: 'håller inte',
  fileSha256: 'Filens SHA-256',
  newerCopy: 'Kontoret har en nyare kopia av denna PDF med en betrodd tidsstämpel; be om den.',
  otherSignatures: (n: number) => `${n} annan/andra signatur(er) i filen (inte kontorets).`,
  roles: { DEFAULT: 'Undertecknare', APPROVER: 'Godkännare', VIEWER: 'Mottagare' },
  language: 'English',
};

export const verifyStrings = { en, sv };
export type VerifyStrings = typeof en;

export function initialLanguage(): VerifyLanguage {
  const asked = new URLSearchParams(window.location.search).get('lang');
  if (asked === 'sv' || asked === 'en') return asked;
  return navigator.language.toLowerCase().startsWith('sv') ? 'sv' : 'en';
}
