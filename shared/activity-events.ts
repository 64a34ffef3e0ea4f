/**
 * The one table of activity-log events and their readable names, in English and Swedish: the
 * admin UI's activity card and the sealed audit trail's event list both read it. A new kind of
 * event needs one line here; an event missing from it shows as its code.
 */
export const ACTIVITY_EVENTS = {
  'contract.created': { en: 'Contract created', sv: 'Avtalet skapat' },
  'contract.updated': { en: 'Contract changed', sv: 'Avtalet ändrat' },
  'contract.sent': { en: 'Sent for signing', sv: 'Skickat för signering' },
  'contract.signed': { en: 'Signed by everyone', sv: 'Signerat av alla' },
  'contract.rejected': { en: 'Contract rejected', sv: 'Avtalet avvisat' },
  'contract.expired': { en: 'Signing links expired', sv: 'Signeringslänkarna gick ut' },
  'contract.withdrawn': { en: 'Contract withdrawn', sv: 'Avtalet återkallat' },
  'contract.reminders_changed': { en: 'Reminders changed', sv: 'Påminnelser ändrade' },
  'contract.timestamped': { en: 'Trusted timestamp added', sv: 'Betrodd tidsstämpel tillagd' },
  'contract.timestamp_pending': {
    en: 'Timestamp authority did not answer: timestamp pending',
    sv: 'Tidsstämpelservern svarade inte: tidsstämpel väntar',
  },
  'party.added': { en: 'Party added', sv: 'Part tillagd' },
  'party.changed': { en: 'Party changed', sv: 'Part ändrad' },
  'party.corrected': { en: 'Party corrected after sending', sv: 'Part rättad efter utskick' },
  'party.delegated': { en: 'Party handed the turn to someone else', sv: 'Part lämnade över till någon annan' },
  'party.removed': { en: 'Party removed', sv: 'Part borttagen' },
  'party.invited': { en: 'Party invited', sv: 'Part inbjuden' },
  'party.reminded': { en: 'Reminder sent', sv: 'Påminnelse skickad' },
  'party.expiry_warned': { en: 'Expiry warning sent', sv: 'Varning om slutdatum skickad' },
  'party.withdrawal_sent': { en: 'Party told of the withdrawal', sv: 'Parten meddelad om återkallelsen' },
  'party.opened': { en: 'Party opened the link', sv: 'Part öppnade länken' },
  'party.code_sent': { en: 'One-time code sent', sv: 'Engångskod skickad' },
  'party.code_verified': { en: 'One-time code verified', sv: 'Engångskod godkänd' },
  'party.code_failed': { en: 'Wrong or expired one-time code', sv: 'Fel eller utgången engångskod' },
  'party.signed': { en: 'Party signed', sv: 'Part signerade' },
  'party.approved': { en: 'Party approved', sv: 'Part godkände' },
  'party.rejected': { en: 'Party rejected', sv: 'Part avvisade' },
  'annotation.added': { en: 'Field added', sv: 'Fält tillagt' },
  'annotation.changed': { en: 'Field changed', sv: 'Fält ändrat' },
  'annotation.removed': { en: 'Field removed', sv: 'Fält borttaget' },
  'attachment.added': { en: 'Attachment added', sv: 'Bilaga tillagd' },
  'attachment.removed': { en: 'Attachment removed', sv: 'Bilaga borttagen' },
  // The office log's own entries (users, keys, settings, the seal certificate).
  'user.created': { en: 'User created', sv: 'Användare skapad' },
  'user.changed': { en: 'User changed', sv: 'Användare ändrad' },
  'user.deleted': { en: 'User deleted', sv: 'Användare borttagen' },
  'token.created': { en: 'API key created', sv: 'API-nyckel skapad' },
  'token.revoked': { en: 'API key revoked', sv: 'API-nyckel återkallad' },
  'settings.changed': { en: 'Settings changed', sv: 'Inställningar ändrade' },
  'seal_certificate.changed': { en: 'Seal certificate changed', sv: 'Sigillcertifikat bytt' },
  'seal_certificate.renewed': { en: 'Seal certificate renewed', sv: 'Sigillcertifikat förnyat' },
} as const satisfies Record<string, { en: string; sv: string }>;

export type ActivityEventName = keyof typeof ACTIVITY_EVENTS;

/** The readable name of an event in the language, or undefined for an event the table does not know. */
export function activityEventLabel(event: string, language: 'en' | 'sv'): string | undefined {
  const entry = (ACTIVITY_EVENTS as Record<string, { en: string; sv: string }>)[event];
  return entry?.[language];
}

/**
 * The readable names of the details entries carry (keys of ApiActivityLogEntry.details). A
 * detail missing here shows under its key.
 */
export const ACTIVITY_DETAILS = {
  channel: { en: 'by', sv: 'via' },
  email: { en: 'e-mail', sv: 'e-post' },
  mobile_phone: { en: 'mobile', sv: 'mobil' },
  delivery_method: { en: 'delivery', sv: 'leverans' },
  silent: { en: 'silent (no message sent)', sv: 'tyst (inget meddelande skickat)' },
  auto_sign: { en: 'signed at sending (auto-sign)', sv: 'undertecknat vid utskick (automatiskt)' },
  signature_name: { en: 'typed name', sv: 'inskrivet namn' },
  mark: { en: 'mark', sv: 'signaturmärke' },
  mark_sha256: { en: 'mark SHA-256', sv: 'märkets SHA-256' },
  initials_sha256: { en: 'initials SHA-256', sv: 'initialernas SHA-256' },
  face: { en: 'typeface', sv: 'typsnitt' },
  authentication: { en: 'authentication', sv: 'autentisering' },
  cause: { en: 'cause', sv: 'anledning' },
  reason: { en: 'reason', sv: 'orsak' },
  from: { en: 'from', sv: 'från' },
  to: { en: 'to', sv: 'till' },
  name: { en: 'name', sv: 'namn' },
  copy_of: { en: 'copy of', sv: 'kopia av' },
  reminder_interval_days: { en: 'reminder every (days)', sv: 'påminnelse var (dag)' },
  reminder_max_count: { en: 'at most', sv: 'högst' },
  expiry_warning_days: { en: 'expiry warning (days before)', sv: 'varning (dagar före utgång)' },
  note: { en: 'note', sv: 'anteckning' },
  sha256: { en: 'SHA-256', sv: 'SHA-256' },
  size: { en: 'bytes', sv: 'byte' },
  authority: { en: 'authority', sv: 'tidsstämpelserver' },
  kind: { en: 'kind', sv: 'typ' },
  authority_time: { en: 'authority time', sv: 'serverns tid' },
  clock_offset_s: { en: 'PC clock off by (s)', sv: 'datorns klocka fel med (s)' },
  error: { en: 'error', sv: 'fel' },
} as const satisfies Record<string, { en: string; sv: string }>;

export function activityDetailLabel(key: string, language: 'en' | 'sv'): string {
  return (ACTIVITY_DETAILS as Record<string, { en: string; sv: string }>)[key]?.[language] ?? key;
}
