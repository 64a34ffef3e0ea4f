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
    intact: (office: string) => `Sealed by ${office}, and unchanged`,
    extended: (office: string) => `The document sealed by ${office}, with validation data added`,
    changed: (office: string) => `Sealed by ${office}, but changed afterwards`,
    'same-pages': (office: string) => `The pages ${office} sealed, in a file saved again`,
    damaged: (office: string) => `Sealed by ${office}, but the seal is damaged`,
    broken: (office: string) => `Changed: the seal of ${office} no longer holds`,
    'unknown-seal': (office: string) => `Sealed with the certificate of ${office}, but unknown here`,
    'not-sealed-here': (office: string) => `Not sealed by ${office}`,
    'not-pdf': () => 'This is not a PDF',
  } satisfies Record<VerifyVerdict, (office: string) => string>,
  thisOffice: 'this office',
  explanations: {
    intact: 'Every byte the office sealed is in the file as it was, and nothing was added.',
    extended:
      'Every byte the office sealed is in the file as it was. After the seal only what long-term validation adds was added (trusted timestamps, and validation data: certificates and revocation information); nothing on any page changed.',
    changed: (bytes: number, hasChanges: boolean) =>
      hasChanges
        ? 'The sealed document is intact, but the file was changed after the seal in a way a sealed document does not allow:'
        : bytes > 0
          ? `The sealed document is intact, but ${bytes.toLocaleString('en')} bytes were added after the seal (a later change, such as an edit or another signature). The sealed version is the part before them.`
          : 'Every byte the seal signs is intact, but the seal’s signature container differs from the copy the office issued.',
    'same-pages':
      'The pages are the ones the office sealed, but the bytes of the file differ: another program saved it again, so the seal no longer covers this file. Ask the office for the original.',
    damaged:
      'Every byte the office sealed is in the file, unchanged, but the seal’s signature container is damaged, so the seal cannot be checked. Ask the office for an undamaged copy.',
    broken:
      'The file carries the office’s seal, but the bytes it seals were changed afterwards. Do not rely on this copy.',
    'unknown-seal': 'The seal is valid, but no contract of the office has exactly these bytes.',
    'not-sealed-here': 'No seal of the office is in this file. It may have been sealed elsewhere, or not at all.',
    'not-pdf': 'Choose a PDF file.',
  },
  addition: (timestamps: number, validationData: boolean) =>
    [
      validationData ? 'validation data' : '',
      timestamps > 0 ? `${timestamps} trusted timestamp${timestamps === 1 ? '' : 's'}` : '',
    ]
      .filter(Boolean)
      .join(' and ') || 'nothing that shows',
  additionsTitle: 'Added after the seal',
  signedBy: (who: string, time: string) => `signed by ${who}, ${time}`,
  unsigned: 'not signed by anyone (no trusted timestamp covers it)',
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
    intact: (office: string) => `Förseglad av ${office} och oförändrad`,
    extended: (office: string) => `Dokumentet som ${office} förseglade, med valideringsdata tillagda`,
    changed: (office: string) => `Förseglad av ${office}, men ändrad i efterhand`,
    'same-pages': (office: string) => `Sidorna som ${office} förseglade, i en fil som sparats om`,
    damaged: (office: string) => `Förseglad av ${office}, men förseglingen är skadad`,
    broken: (office: string) => `Ändrad: förseglingen från ${office} håller inte längre`,
    'unknown-seal': (office: string) => `Förseglad med certifikatet från ${office}, men okänd här`,
    'not-sealed-here': (office: string) => `Inte förseglad av ${office}`,
    'not-pdf': () => 'Detta är inte en PDF',
  },
  thisOffice: 'detta kontor',
  explanations: {
    intact: 'Varje byte som kontoret förseglade finns kvar i filen som den var, och inget har lagts till.',
    extended:
      'Varje byte som kontoret förseglade finns kvar i filen som den var. Efter förseglingen har bara det som långtidsvalidering lägger till lagts till (betrodda tidsstämplar och valideringsdata: certifikat och spärrinformation); inget på någon sida har ändrats.',
    changed: (bytes: number, hasChanges: boolean) =>
      hasChanges
        ? 'Det förseglade dokumentet är intakt, men filen har ändrats efter förseglingen på ett sätt som ett förseglat dokument inte tillåter:'
        : bytes > 0
          ? `Det förseglade dokumentet är intakt, men ${bytes.toLocaleString('sv')} byte har lagts till efter förseglingen (en senare ändring, till exempel en redigering eller en annan signatur). Den förseglade versionen är delen före dem.`
          : 'Varje byte som förseglingen signerar är intakt, men förseglingens signaturbehållare skiljer sig från kopian som kontoret utfärdade.',
    'same-pages':
      'Sidorna är de som kontoret förseglade, men filens byte skiljer sig: ett annat program har sparat om den, så förseglingen täcker inte längre denna fil. Be kontoret om originalet.',
    damaged:
      'Varje byte som kontoret förseglade finns oförändrad i filen, men förseglingens signaturbehållare är skadad, så förseglingen kan inte kontrolleras. Be kontoret om en oskadad kopia.',
    broken:
      'Filen bär kontorets försegling, men de byte den förseglar har ändrats i efterhand. Lita inte på denna kopia.',
    'unknown-seal': 'Förseglingen är giltig, men inget av kontorets avtal har exakt dessa byte.',
    'not-sealed-here':
      'Filen har ingen försegling från kontoret. Den kan ha förseglats någon annanstans, eller inte alls.',
    'not-pdf': 'Välj en PDF-fil.',
  },
  addition: (timestamps: number, validationData: boolean) =>
    [
      validationData ? 'valideringsdata' : '',
      timestamps > 0
        ? `${timestamps} betrodd${timestamps === 1 ? '' : 'a'} tidsstämpl${timestamps === 1 ? 'el' : 'ar'}`
        : '',
    ]
      .filter(Boolean)
      .join(' och ') || 'inget som syns',
  additionsTitle: 'Tillagt efter förseglingen',
  signedBy: (who: string, time: string) => `signerat av ${who}, ${time}`,
  unsigned: 'inte signerat av någon (ingen betrodd tidsstämpel täcker det)',
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
