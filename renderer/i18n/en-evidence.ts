/** English of the evidence: timestamps, the hash-chained log, the evidence package. Part of `en`. */
export const enEvidence = {
  'evidence.title': 'Evidence',
  'evidence.description': 'What lets anyone check this contract without trusting this PC.',
  'evidence.timestamp': 'Trusted timestamp',
  'evidence.timestampNone':
    'None: no timestamp authority was set when it was sealed, so its times rest only on this PC’s clock.',
  'evidence.timestampPending': 'Timestamp pending',
  'evidence.timestampPendingBody':
    'The timestamp authority did not answer when the contract was sealed. The contract is signed; SignDesk keeps asking and adds a document timestamp to the signed PDF as soon as it answers.',
  'evidence.timestampSignature': 'In the seal (PAdES B-T), by the authority’s clock {time}',
  'evidence.timestampDocument': 'Document timestamp added later, by the authority’s clock {time}',
  'evidence.clockOff':
    'This PC’s clock was {seconds} s off the timestamp authority’s when it was sealed. Set the PC’s clock right.',
  'evidence.chain': 'Activity log',
  'evidence.chainIntact': 'Intact: {n} entries, each chained to the one before (SHA-256)',
  'evidence.chainBroken': 'Not intact: a past entry was changed, removed or inserted',
  'evidence.chainChecking': 'Checking…',
  'evidence.sealedHead': 'Head sealed into the PDF: entry #{n}',
  'evidence.anchored':
    'Entries #1–#{n} proven by the timestamp authority: they existed, as they are now, by {time} (office anchor #{anchor}).',
  'evidence.anchoredPartly': 'Entries after #{n} rest on this PC alone until the next office anchor.',
  'evidence.notAnchored':
    'No office anchor holds this log yet: its entries rest on this PC alone until one is made (after a seal, and daily, while a timestamp authority is set).',
  'evidence.package': 'Evidence package',
  'evidence.packageHint':
    'The signed PDF, the log with its hash chain, the certificates and timestamp tokens, and how to check all of it offline.',
  'evidence.download': 'Download evidence package',
  'evidence.verifyHint': 'Anyone holding the signed PDF can check it at {url}.',
  'contracts.timestampPending': 'Timestamp pending',
  'settings.timestamps': 'Trusted timestamps',
  'settings.timestampsDescription':
    'An RFC 3161 timestamp authority vouches for when each PDF was sealed. Without one, the signing times are only this PC’s word.',
  'settings.tsaUrl': 'Timestamp authority URL',
  'settings.tsaHint': 'http:// or https:// address of an RFC 3161 timestamp authority. Empty: none.',
  'settings.tsaNone': 'No timestamp authority is set: signed PDFs carry no trusted time, only this PC’s clock.',
  'settings.tsaTest': 'Test the authority',
  'settings.tsaTestOk': 'The authority answered: {authority}, its time {time}.',
  'settings.tsaTestFailed': 'The authority did not answer',
  'settings.tsaPending':
    '{n} signed contract(s) wait for a timestamp; they are asked again as soon as the authority answers.',
  'settings.tsaClockOff':
    'This PC’s clock is {seconds} s off the timestamp authority’s. Set the PC’s clock right: the times in the audit trail come from it.',
  'clock.offBanner':
    'This PC’s clock differs from the timestamp authority’s by {seconds} s (checked {time}). Times recorded now are wrong: set the PC’s clock right.',
  'officeLog.title': 'Office log and anchors',
  'officeLog.description':
    'Changes to users, API keys, webhooks, settings and the seal certificate, and deleted drafts, hash chained like a contract’s log. The heads of every log are timestamped by the authority after each seal and daily. The check also compares users’ e-mails and webhook keys with what the log recorded, and looks for every contract an anchor holds.',
  'officeLog.state': 'Office log',
  'officeLog.intact': 'Intact: {n} entries; {anchors} office anchors verified against the authority’s tokens',
  'officeLog.broken':
    'Not intact: an entry or an office anchor was changed, removed or inserted, or the database was changed outside SignDesk (see below)',
  'officeLog.anchored': 'Proven by the authority',
  'officeLog.anchoredUpTo': 'Entries #1–#{n}; newest office anchor timestamped {time}',
  'officeLog.noAnchor': 'No office anchor yet: set a timestamp authority, and one is made at once.',
  'officeLog.time': 'Time',
  'officeLog.event': 'Event',
  'officeLog.subject': 'About',
  'clock.offLink': 'Timestamp settings',
  'settings.tsaLast': 'Last timestamp: {time} (authority’s clock).',
};
