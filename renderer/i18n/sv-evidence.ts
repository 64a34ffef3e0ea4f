import type { enEvidence } from './en-evidence';

/** Svenska för bevisningen: tidsstämplar, den hashkedjade loggen, bevispaketet. En del av `sv`. */
export const svEvidence: Record<keyof typeof enEvidence, string> = {
  'evidence.title': 'Bevisning',
  'evidence.description': 'Det som låter vem som helst kontrollera avtalet utan att lita på den här datorn.',
  'evidence.timestamp': 'Betrodd tidsstämpel',
  'evidence.timestampNone':
    'Ingen: ingen tidsstämpelserver var inställd vid förseglingen, så tiderna vilar enbart på den här datorns klocka.',
  'evidence.timestampPending': 'Tidsstämpel väntar',
  'evidence.timestampPendingBody':
    'Tidsstämpelservern svarade inte när avtalet förseglades. Avtalet är signerat; SignDesk fortsätter att fråga och lägger till en dokumenttidsstämpel i den signerade PDF:en så snart servern svarar.',
  'evidence.timestampSignature': 'I förseglingen (PAdES B-T), enligt serverns klocka {time}',
  'evidence.timestampDocument': 'Dokumenttidsstämpel tillagd i efterhand, enligt serverns klocka {time}',
  'evidence.clockOff':
    'Datorns klocka skilde sig {seconds} s från tidsstämpelserverns vid förseglingen. Ställ datorns klocka rätt.',
  'evidence.chain': 'Händelselogg',
  'evidence.chainIntact': 'Intakt: {n} poster, var och en kedjad till den före (SHA-256)',
  'evidence.chainBroken': 'Inte intakt: en tidigare post har ändrats, tagits bort eller lagts till',
  'evidence.chainChecking': 'Kontrollerar…',
  'evidence.sealedHead': 'Toppen förseglad i PDF:en: post #{n}',
  'evidence.anchored':
    'Post #1–#{n} bevisade av tidsstämpelutfärdaren: de fanns, som de är nu, senast {time} (kontorets ankare #{anchor}).',
  'evidence.anchoredPartly': 'Poster efter #{n} vilar bara på den här datorn tills nästa ankare.',
  'evidence.notAnchored':
    'Inget ankare håller den här loggen än: posterna vilar bara på den här datorn tills ett görs (efter en försegling, och dagligen, när en tidsstämpelutfärdare är inställd).',
  'evidence.package': 'Bevispaket',
  'evidence.packageHint':
    'Den signerade PDF:en, loggen med sin hashkedja, certifikaten och tidsstämplarna, och hur allt kontrolleras utan nätverk.',
  'evidence.download': 'Ladda ner bevispaket',
  'evidence.verifyHint': 'Den som har den signerade PDF:en kan kontrollera den på {url}.',
  'contracts.timestampPending': 'Tidsstämpel väntar',
  'settings.timestamps': 'Betrodda tidsstämplar',
  'settings.timestampsDescription':
    'En RFC 3161-tidsstämpelserver intygar när varje PDF förseglades. Utan en sådan är signeringstiderna bara den här datorns ord.',
  'settings.tsaUrl': 'Tidsstämpelserverns URL',
  'settings.tsaHint': 'http://- eller https://-adress till en RFC 3161-tidsstämpelserver. Tom: ingen.',
  'settings.tsaNone': 'Ingen tidsstämpelserver är inställd: signerade PDF:er saknar betrodd tid, bara datorns klocka.',
  'settings.tsaTest': 'Testa servern',
  'settings.tsaTestOk': 'Servern svarade: {authority}, dess tid {time}.',
  'settings.tsaTestFailed': 'Servern svarade inte',
  'settings.tsaPending': '{n} signerade avtal väntar på en tidsstämpel; de frågas igen så snart servern svarar.',
  'settings.tsaClockOff':
    'Datorns klocka skiljer sig {seconds} s från tidsstämpelserverns. Ställ datorns klocka rätt: tiderna i signeringsloggen kommer från den.',
  'clock.offBanner':
    'Den här datorns klocka skiljer sig {seconds} s från tidsstämpelutfärdarens (kontrollerat {time}). Tider som registreras nu blir fel: ställ datorns klocka rätt.',
  'officeLog.title': 'Kontorets logg och ankare',
  'officeLog.description':
    'Ändringar av användare, API-nycklar, webhooks, inställningar och sigillcertifikatet, och borttagna utkast, hashkedjade som ett avtals logg. Toppen av varje logg tidsstämplas av utfärdaren efter varje försegling och dagligen. Kontrollen jämför också användarnas e-postadresser och webhooknycklarna med det loggen registrerade, och letar efter varje avtal som ett ankare håller.',
  'officeLog.state': 'Kontorets logg',
  'officeLog.intact': 'Intakt: {n} poster; {anchors} ankare kontrollerade mot utfärdarens tidsstämplar',
  'officeLog.broken':
    'Inte intakt: en post eller ett ankare har ändrats, tagits bort eller lagts till, eller databasen har ändrats utanför SignDesk (se nedan)',
  'officeLog.anchored': 'Bevisat av utfärdaren',
  'officeLog.anchoredUpTo': 'Post #1–#{n}; senaste ankaret tidsstämplat {time}',
  'officeLog.noAnchor': 'Inget ankare än: ställ in en tidsstämpelutfärdare, så görs ett direkt.',
  'officeLog.time': 'Tid',
  'officeLog.event': 'Händelse',
  'officeLog.subject': 'Gäller',
  'clock.offLink': 'Inställningar för tidsstämplar',
  'settings.tsaLast': 'Senaste tidsstämpel: {time} (serverns klocka).',
};
