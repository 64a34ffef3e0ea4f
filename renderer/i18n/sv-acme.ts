import type { enAcme } from './en-acme';

/** Svenska för den publika adressens ACME-certifikat. */
export const svAcme: Record<keyof typeof enAcme, string> = {
  'acme.title': 'Certifikat från Let’s Encrypt (ACME)',
  'acme.description':
    'Den publika adressens HTTPS-certifikat, hämtat från en ACME-certifikatutfärdare och förnyat automatiskt när en tredjedel av giltighetstiden återstår.',
  'acme.off':
    'Av. Ange ACME_DOMAIN (med PUBLIC_PORT) och vidarebefordra port 80 till den här datorn, så hämtar och förnyar SignDesk sitt eget certifikat.',
  'acme.domain': 'Domän',
  'acme.authority': 'Certifikatutfärdare',
  'acme.email': 'Kontaktadress',
  'acme.challengePort': 'Valideringsport (HTTP)',
  'acme.issuer': 'Utfärdat av',
  'acme.serial': 'Serienummer',
  'acme.validity': 'Giltigt',
  'acme.validityRange': '{from} – {to}',
  'acme.renewalTime': 'Förnyas från',
  'acme.nextAttempt': 'Nästa kontroll',
  'acme.lastRenewal': 'Senast förnyat',
  'acme.never': 'Aldrig',
  'acme.none': 'Inget certifikat ännu: den publika adressen har inget att visa förrän utfärdaren har utfärdat ett.',
  'acme.obtaining': 'Ber certifikatutfärdaren om ett certifikat…',
  'acme.failed': 'Senaste försöket misslyckades ({time})',
  'acme.failedKept': 'Certifikatet som gäller används fortfarande. SignDesk försöker igen av sig själv.',
  'acme.renew': 'Förnya nu',
  'acme.renewAsked': 'Förnyelse begärd: det nya certifikatet används så snart det kommer, utan omstart.',
};
