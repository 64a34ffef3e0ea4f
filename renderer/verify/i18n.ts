import type { Language } from '../../shared/api/enums';
import { fillText, type TextValues } from '../lib/translate';

/** English: the keys of the verify page's texts (the admin UI's style: flat keys, `{name}` placeholders). */
const en = {
  title: 'Verify a signed PDF',
  intro:
    'Drop a PDF that was signed with SignDesk here to learn whether this office sealed it and whether anything changed since. The file is checked on this server and is not kept.',
  drop: 'Drop the PDF here, or choose a file',
  choose: 'Choose a PDF',
  checking: 'Checking…',
  another: 'Check another PDF',
  failed: 'The PDF could not be checked.',
  tooLarge: 'The file is larger than {mb} MB.',
  'verdict.intact': 'Sealed by {office}, and unchanged',
  'verdict.extended': 'The document sealed by {office}, with validation data added',
  'verdict.changed': 'Sealed by {office}, but changed afterwards',
  'verdict.same-pages': 'The pages {office} sealed, in a file saved again',
  'verdict.damaged': 'Sealed by {office}, but the seal is damaged',
  'verdict.broken': 'Changed: the seal of {office} no longer holds',
  'verdict.unknown-seal': 'Sealed with the certificate of {office}, but unknown here',
  'verdict.not-sealed-here': 'Not sealed by {office}',
  'verdict.not-pdf': 'This is not a PDF',
  thisOffice: 'this office',
  'explanation.intact': 'Every byte the office sealed is in the file as it was, and nothing was added.',
  'explanation.extended':
    'Every byte the office sealed is in the file as it was. After the seal only what long-term validation adds was added (trusted timestamps, and validation data: certificates and revocation information); nothing on any page changed.',
  'explanation.changedNotAllowed':
    'The sealed document is intact, but the file was changed after the seal in a way a sealed document does not allow:',
  'explanation.changed':
    'The sealed document is intact, but {bytes} bytes were added after the seal (a later change, such as an edit or another signature). The sealed version is the part before them.',
  'explanation.changedContainer':
    'Every byte the seal signs is intact, but the seal’s signature container differs from the copy the office issued.',
  'explanation.same-pages':
    'The pages are the ones the office sealed, but the bytes of the file differ: another program saved it again, so the seal no longer covers this file. Ask the office for the original.',
  'explanation.damaged':
    'Every byte the office sealed is in the file, unchanged, but the seal’s signature container is damaged, so the seal cannot be checked. Ask the office for an undamaged copy.',
  'explanation.broken':
    'The file carries the office’s seal, but the bytes it seals were changed afterwards. Do not rely on this copy.',
  'explanation.unknown-seal': 'The seal is valid, but no contract of the office has exactly these bytes.',
  'explanation.not-sealed-here':
    'No seal of the office is in this file. It may have been sealed elsewhere, or not at all.',
  'explanation.not-pdf': 'Choose a PDF file.',
  'addition.data': 'validation data',
  'addition.timestampsOne': '1 trusted timestamp',
  'addition.timestampsMany': '{n} trusted timestamps',
  'addition.and': ' and ',
  'addition.nothing': 'nothing that shows',
  additionsTitle: 'Added after the seal',
  signedBy: 'signed by {who}, {time}',
  unsigned: 'not signed by anyone (no trusted timestamp covers it)',
  contract: 'Contract',
  parties: 'Parties',
  signedAt: 'Signed by everyone',
  seal: 'Seal certificate',
  fingerprint: 'Certificate SHA-256',
  timestamps: 'Trusted timestamps',
  noTimestamp: 'No trusted timestamp: the time of signing rests only on the clock of the office’s PC.',
  'timestampKind.signature': 'In the seal',
  'timestampKind.document': 'Document timestamp',
  valid: 'valid',
  invalid: 'does not hold',
  fileSha256: 'SHA-256 of this file',
  newerCopy: 'The office holds a newer copy of this PDF with a trusted timestamp added; ask for it.',
  'otherSignatures.one': 'One other signature in the file (not this office’s).',
  'otherSignatures.many': '{n} other signatures in the file (not this office’s).',
  'role.DEFAULT': 'Signer',
  'role.APPROVER': 'Approver',
  'role.VIEWER': 'Viewer',
  otherLanguage: 'Svenska',
};

export type VerifyKey = keyof typeof en;

const sv: Record<VerifyKey, string> = {
  title: 'Kontrollera en signerad PDF',
  intro:
    'Släpp en PDF som signerats med SignDesk här för att se om detta kontor har förseglat den och om något har ändrats sedan dess. Filen kontrolleras på denna server och sparas inte.',
  drop: 'Släpp PDF-filen här, eller välj en fil',
  choose: 'Välj en PDF',
  checking: 'Kontrollerar…',
  another: 'Kontrollera en annan PDF',
  failed: 'PDF-filen kunde inte kontrolleras.',
  tooLarge: 'Filen är större än {mb} MB.',
  'verdict.intact': 'Förseglad av {office} och oförändrad',
  'verdict.extended': 'Dokumentet som {office} förseglade, med valideringsdata tillagda',
  'verdict.changed': 'Förseglad av {office}, men ändrad i efterhand',
  'verdict.same-pages': 'Sidorna som {office} förseglade, i en fil som sparats om',
  'verdict.damaged': 'Förseglad av {office}, men förseglingen är skadad',
  'verdict.broken': 'Ändrad: förseglingen från {office} håller inte längre',
  'verdict.unknown-seal': 'Förseglad med certifikatet från {office}, men okänd här',
  'verdict.not-sealed-here': 'Inte förseglad av {office}',
  'verdict.not-pdf': 'Detta är inte en PDF',
  thisOffice: 'detta kontor',
  'explanation.intact': 'Varje byte som kontoret förseglade finns kvar i filen som den var, och inget har lagts till.',
  'explanation.extended':
    'Varje byte som kontoret förseglade finns kvar i filen som den var. Efter förseglingen har bara det som långtidsvalidering lägger till lagts till (betrodda tidsstämplar och valideringsdata: certifikat och spärrinformation); inget på någon sida har ändrats.',
  'explanation.changedNotAllowed':
    'Det förseglade dokumentet är intakt, men filen har ändrats efter förseglingen på ett sätt som ett förseglat dokument inte tillåter:',
  'explanation.changed':
    'Det förseglade dokumentet är intakt, men {bytes} byte har lagts till efter förseglingen (en senare ändring, till exempel en redigering eller en annan signatur). Den förseglade versionen är delen före dem.',
  'explanation.changedContainer':
    'Varje byte som förseglingen signerar är intakt, men förseglingens signaturbehållare skiljer sig från kopian som kontoret utfärdade.',
  'explanation.same-pages':
    'Sidorna är de som kontoret förseglade, men filens byte skiljer sig: ett annat program har sparat om den, så förseglingen täcker inte längre denna fil. Be kontoret om originalet.',
  'explanation.damaged':
    'Varje byte som kontoret förseglade finns oförändrad i filen, men förseglingens signaturbehållare är skadad, så förseglingen kan inte kontrolleras. Be kontoret om en oskadad kopia.',
  'explanation.broken':
    'Filen bär kontorets försegling, men de byte den förseglar har ändrats i efterhand. Lita inte på denna kopia.',
  'explanation.unknown-seal': 'Förseglingen är giltig, men inget av kontorets avtal har exakt dessa byte.',
  'explanation.not-sealed-here':
    'Filen har ingen försegling från kontoret. Den kan ha förseglats någon annanstans, eller inte alls.',
  'explanation.not-pdf': 'Välj en PDF-fil.',
  'addition.data': 'valideringsdata',
  'addition.timestampsOne': '1 betrodd tidsstämpel',
  'addition.timestampsMany': '{n} betrodda tidsstämplar',
  'addition.and': ' och ',
  'addition.nothing': 'inget som syns',
  additionsTitle: 'Tillagt efter förseglingen',
  signedBy: 'signerat av {who}, {time}',
  unsigned: 'inte signerat av någon (ingen betrodd tidsstämpel täcker det)',
  contract: 'Avtal',
  parties: 'Parter',
  signedAt: 'Signerat av alla',
  seal: 'Sigillcertifikat',
  fingerprint: 'Certifikatets SHA-256',
  timestamps: 'Betrodda tidsstämplar',
  noTimestamp: 'Ingen betrodd tidsstämpel: tidpunkten för signeringen vilar enbart på klockan i kontorets dator.',
  'timestampKind.signature': 'I förseglingen',
  'timestampKind.document': 'Dokumenttidsstämpel',
  valid: 'giltig',
  invalid: 'håller inte',
  fileSha256: 'Filens SHA-256',
  newerCopy: 'Kontoret har en nyare kopia av denna PDF med en betrodd tidsstämpel; be om den.',
  'otherSignatures.one': 'En annan signatur i filen (inte kontorets).',
  'otherSignatures.many': '{n} andra signaturer i filen (inte kontorets).',
  'role.DEFAULT': 'Undertecknare',
  'role.APPROVER': 'Godkännare',
  'role.VIEWER': 'Mottagare',
  otherLanguage: 'English',
};

export const VERIFY_DICTIONARIES: Record<Language, Record<VerifyKey, string>> = { en, sv };

export type VerifyTranslate = (key: VerifyKey, values?: TextValues) => string;

export const verifyTranslator =
  (language: Language): VerifyTranslate =>
  (key, values) =>
    fillText(VERIFY_DICTIONARIES[language][key], values);

/** A key of the dictionary when it is one (a party's role from the server may be new to this page). */
export const isVerifyKey = (key: string): key is VerifyKey => key in en;
