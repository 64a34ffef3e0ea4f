/** English of long-term validation: validation data, archive timestamps and their renewal. Part of `en`. */
export const enLtv = {
  'evidence.ltv': 'Long-term validation',
  'evidence.ltvNone': 'None: it needs a trusted timestamp first.',
  'evidence.ltvPending': 'Validation data pending',
  'evidence.ltvPendingBody': 'SignDesk keeps asking: {error}',
  'evidence.ltvDone':
    'PAdES B-LTA: certificates and revocation data in the PDF, archive timestamp {time}; renewed before {expires}.',
  'settings.archive': 'Archive timestamps',
  'settings.archiveDescription':
    'Every signed PDF with a trusted timestamp carries the certificates and revocation data of its seal and timestamps, and an archive timestamp over them, so that it can be checked for decades. Each archive timestamp is renewed {days} days before its authority’s certificate expires; the check runs daily.',
  'settings.archiveLast': 'Last renewal ({reason}), begun {time}: {renewed} of {total} renewed.',
  'settings.archiveReasonScheduled': 'daily check',
  'settings.archiveReasonAdmin': 'by an admin',
  'settings.archiveNever': 'No renewal has run yet.',
  'settings.archivePending': '{n} contract(s) wait for validation data or an archive timestamp.',
  'settings.archiveNext': 'Next daily check: {time}.',
  'settings.archiveRenewAll': 'Renew all archive timestamps now',
};
