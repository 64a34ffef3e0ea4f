import type { enAcme } from './en-acme';

/** Svenska för den publika adressens ACME-certifikat. */
export const svAcme: Record<keyof typeof enAcme, string> = {
  'acme.title': 'Certifikat från Let’s Encrypt (ACME)',
  'acme.description':
    'Den publika adressens HTTPS-certifikat, hämtat från en ACME-certifikatutfärdare och förnyat automatiskt när en tredjedel av giltighetstiden återstår.',
  'acme.off':
    'Av. Spara den publika adressens domän nedan (med en publik port under Publik åtkomst), vidarebefordra port 443 och 80 till den här datorn och starta om: då hämtar och förnyar SignDesk sitt eget certifikat.',
  'acme.domainHint':
    'DNS-namnet som parterna använder, som pekar på kontorets router. Gäller från nästa start. Att spara det godkänner certifikatutfärdarens villkor. Tomt: ACME_DOMAIN, eller av.',
  'acme.emailHint': 'Valfritt: certifikatutfärdaren skriver hit innan ett certifikat går ut.',
  'acme.restartNeeded': 'Starta om SignDesk för att certifikatet för {domain} ska användas.',
  'acme.restartNeededOff': 'Starta om SignDesk för att sluta använda ett certifikat från ACME-utfärdaren.',
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
