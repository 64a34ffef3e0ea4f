import type { enLtv } from './en-ltv';

/** Svenska för långtidsvalidering: valideringsdata, arkivtidsstämplar och deras förnyelse. En del av `sv`. */
export const svLtv: Record<keyof typeof enLtv, string> = {
  'evidence.ltv': 'Långtidsvalidering',
  'evidence.ltvNone': 'Ingen: den kräver först en betrodd tidsstämpel.',
  'evidence.ltvPending': 'Valideringsdata väntar',
  'evidence.ltvPendingBody': 'SignDesk fortsätter att fråga: {error}',
  'evidence.ltvDone':
    'PAdES B-LTA: certifikat och spärrinformation i PDF-filen, arkivtidsstämpel {time}; förnyas före {expires}.',
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
};
