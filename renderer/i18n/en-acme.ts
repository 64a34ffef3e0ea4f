/** English of the public listener's ACME certificate. Part of `en`. */
export const enAcme = {
  'acme.title': 'Certificate from Let’s Encrypt (ACME)',
  'acme.description':
    'The public address’s HTTPS certificate, obtained from an ACME certificate authority and renewed by itself when a third of its lifetime is left.',
  'acme.off':
    'Off. Save the public address’s domain below (with a public port on the Public access card), forward ports 443 and 80 to this PC, and restart: SignDesk then gets and renews its own certificate.',
  'acme.domainHint':
    'The DNS name parties use, pointing at the office’s router. Takes effect when SignDesk next starts. Saving it agrees to the certificate authority’s terms of service. Empty: ACME_DOMAIN, or off.',
  'acme.emailHint': 'Optional: the certificate authority writes here before a certificate expires.',
  'acme.restartNeeded': 'Restart SignDesk for the certificate of {domain} to be used.',
  'acme.restartNeededOff': 'Restart SignDesk to stop using a certificate from the ACME CA.',
  'acme.domain': 'Domain',
  'acme.authority': 'Certificate authority',
  'acme.email': 'Contact e-mail',
  'acme.challengePort': 'Validation port (HTTP)',
  'acme.issuer': 'Issued by',
  'acme.serial': 'Serial number',
  'acme.validity': 'Valid',
  'acme.validityRange': '{from} – {to}',
  'acme.renewalTime': 'Renewed from',
  'acme.nextAttempt': 'Next look',
  'acme.lastRenewal': 'Last renewed',
  'acme.never': 'Never',
  'acme.none': 'No certificate yet: the public address has none to serve until the authority issues one.',
  'acme.obtaining': 'Asking the certificate authority for a certificate…',
  'acme.failed': 'The last attempt failed ({time})',
  'acme.failedKept': 'The certificate in force is still served. SignDesk tries again by itself.',
  'acme.renew': 'Renew now',
  'acme.renewAsked': 'Renewal asked for: the new certificate is served as soon as it comes, without a restart.',
};
