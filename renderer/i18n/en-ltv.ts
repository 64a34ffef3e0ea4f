/** English of long-term validation: validation data, archive timestamps and their renewal. Part of `en`. */
export const enLtv = {
  'evidence.ltv': 'Long-term validation',
  'evidence.ltvNone': 'None: it needs a trusted timestamp first.',
  'evidence.ltvPending': 'Validation data pending',
  'evidence.ltvPendingBody': 'SignDesk keeps asking: {error}',
  'evidence.ltvDone':
    'PAdES B-LTA: certificates and revocation data in the PDF, archive timestamp {time}; renewed before {expires}.',
  'evidence.ltvNote': 'What it lacks: {note}',
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
  'settings.trustedRoots': 'Trusted certificate authorities',
  'settings.trustedRootsDescription':
    'Long-term validation puts every certificate of a timestamp authority’s chain in the PDF and asks each one’s revocation service. Some authorities’ timestamps carry only their own certificate: SignDesk then fetches the missing ones from the address each certificate names, or takes them from here. Add the root (or intermediate) certificate your authority publishes on its website.',
  'settings.trustedRootsNone':
    'None added. The certificates the timestamps carry, and those their addresses give, are used.',
  'settings.trustedRootAdded': 'Added: {subject}. Contracts waiting for validation data are tried again now.',
  'settings.trustedRootDetails': 'Valid until {until} · added {added}',
  'settings.trustedRootExpired': 'Expired',
  'settings.trustedRootFile': 'Certificate file (.pem, .crt, .cer)',
  'settings.trustedRootPem': 'Or paste the certificate (PEM)',
  'settings.trustedRootPemHint': 'One certificate authority’s certificate, from the authority itself.',
  'settings.trustedRootAdd': 'Add certificate authority',
  'settings.trustedRootRemove': 'Remove',
  'settings.trustedRootRemoveNamed': 'Remove {subject}',
  'settings.trustedRootRemoveTitle': 'Remove this certificate authority?',
  'settings.trustedRootRemoveBody':
    '{subject} will no longer be used to complete timestamp chains. PDFs already extended keep the certificates they hold.',
};
