import type { enLtv } from './en-ltv';

/** Svenska för långtidsvalidering: valideringsdata, arkivtidsstämplar och deras förnyelse. En del av `sv`. */
export const svLtv: Record<keyof typeof enLtv, string> = {
  'evidence.ltv': 'Långtidsvalidering',
  'evidence.ltvNone': 'Ingen: den kräver först en betrodd tidsstämpel.',
  'evidence.ltvPending': 'Valideringsdata väntar',
  'evidence.ltvPendingBody': 'SignDesk fortsätter att fråga: {error}',
  'evidence.ltvDone':
    'PAdES B-LTA: certifikat och spärrinformation i PDF-filen, arkivtidsstämpel {time}; förnyas före {expires}.',
  'evidence.ltvNote': 'Detta saknas: {note}',
  'settings.archive': 'Arkivtidsstämplar',
  'settings.archiveDescription':
    'Varje signerad PDF med en betrodd tidsstämpel bär certifikaten och spärrinformationen för sin försegling och sina tidsstämplar, och en arkivtidsstämpel över dem, så att den kan kontrolleras i årtionden. Varje arkivtidsstämpel förnyas {days} dagar innan tidsstämpelserverns certifikat går ut; kontrollen körs dagligen.',
  'settings.archiveLast': 'Senaste förnyelse ({reason}), påbörjad {time}: {renewed} av {total} förnyade.',
  'settings.archiveReasonScheduled': 'daglig kontroll',
  'settings.archiveReasonAdmin': 'av en administratör',
  'settings.archiveNever': 'Ingen förnyelse har körts ännu.',
  'settings.archivePending': '{n} avtal väntar på valideringsdata eller en arkivtidsstämpel.',
  'settings.archiveNext': 'Nästa dagliga kontroll: {time}.',
  'settings.archiveRenewAll': 'Förnya alla arkivtidsstämplar nu',
  'settings.trustedRoots': 'Betrodda certifikatutfärdare',
  'settings.trustedRootsDescription':
    'Långtidsvalideringen lägger varje certifikat i tidsstämpelserverns kedja i PDF-filen och frågar var och ens spärrtjänst. Vissa servrars tidsstämplar bär bara deras eget certifikat: SignDesk hämtar då de som saknas från adressen som varje certifikat anger, eller tar dem härifrån. Lägg till rotcertifikatet (eller mellanliggande certifikat) som er tidsstämpelserver publicerar på sin webbplats.',
  'settings.trustedRootsNone':
    'Inga tillagda. Certifikaten som tidsstämplarna bär, och de som deras adresser ger, används.',
  'settings.trustedRootAdded': 'Tillagt: {subject}. Avtal som väntar på valideringsdata provas igen nu.',
  'settings.trustedRootDetails': 'Giltigt till {until} · tillagt {added}',
  'settings.trustedRootExpired': 'Utgånget',
  'settings.trustedRootFile': 'Certifikatfil (.pem, .crt, .cer)',
  'settings.trustedRootPem': 'Eller klistra in certifikatet (PEM)',
  'settings.trustedRootPemHint': 'En certifikatutfärdares certifikat, från utfärdaren själv.',
  'settings.trustedRootAdd': 'Lägg till certifikatutfärdare',
  'settings.trustedRootRemove': 'Ta bort',
  'settings.trustedRootRemoveNamed': 'Ta bort {subject}',
  'settings.trustedRootRemoveTitle': 'Ta bort denna certifikatutfärdare?',
  'settings.trustedRootRemoveBody':
    '{subject} används inte längre för att komplettera tidsstämpelkedjor. PDF-filer som redan utökats behåller sina certifikat.',
};
