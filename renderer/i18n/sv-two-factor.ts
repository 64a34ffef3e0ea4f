import type { enTwoFactor } from './en-two-factor';

/** Svenska för tvåfaktorsinloggning (autentiseringsapp). En del av `sv`. */
export const svTwoFactor: Record<keyof typeof enTwoFactor, string> = {
  'nav.account': 'Din inloggning',
  'account.title': 'Din inloggning',
  'account.description': 'Hur du loggar in i SignDesk.',
  'twoFactor.title': 'Tvåfaktorsinloggning',
  'twoFactor.description':
    'Efter ditt lösenord ber SignDesk om en sexsiffrig kod från en autentiseringsapp i din telefon (Microsoft Authenticator, Google Authenticator, 1Password, …).',
  'twoFactor.on': 'På sedan {time}. Återställningskoder kvar: {n}.',
  'twoFactor.off': 'Av: ditt lösenord räcker för att logga in.',
  'twoFactor.required': 'Kontoret kräver tvåfaktorsinloggning av alla.',
  'twoFactor.setUp': 'Konfigurera en autentiseringsapp',
  'twoFactor.scan': 'Skanna QR-koden med autentiseringsappen och skriv sedan koden den visar.',
  'twoFactor.qrAlt': 'QR-kod för autentiseringsappen',
  'twoFactor.secret': 'Går det inte att skanna? Skriv in den här nyckeln i appen i stället:',
  'twoFactor.code': 'Kod från appen',
  'twoFactor.turnOn': 'Slå på',
  'twoFactor.turnOff': 'Stäng av tvåfaktorsinloggning',
  'twoFactor.turnOffHint': 'Bekräfta med ditt lösenord.',
  'twoFactor.turnedOff': 'Tvåfaktorsinloggning är avstängd.',
  'twoFactor.codesTitle': 'Dina återställningskoder',
  'twoFactor.codesLead':
    'Varje kod loggar in dig en gång utan appen, om du blir av med telefonen. Förvara dem säkert: de visas bara nu.',
  'twoFactor.codesSaved': 'Jag har sparat dem',
  'twoFactor.copyCodes': 'Kopiera återställningskoderna',
  'signIn.codeTitle': 'Ange din kod',
  'signIn.codeLead':
    'Öppna autentiseringsappen och skriv den sexsiffriga koden för SignDesk, eller en av dina återställningskoder.',
  'signIn.codeField': 'Kod',
  'signIn.enrolTitle': 'Konfigurera tvåfaktorsinloggning',
  'signIn.enrolLead':
    'Kontoret kräver en andra faktor av alla. Konfigurera en autentiseringsapp i din telefon för att fortsätta.',
  'signIn.startOver': 'Logga in igen',
  'settings.signIn': 'Personalens inloggning',
  'settings.signInDescription': 'Hur kontorets personal loggar in i administrationen. API-nycklar påverkas inte.',
  'settings.requireTwoFactors': 'Kräv tvåfaktorsinloggning av alla',
  'settings.requireTwoFactorsHint':
    'Personal utan autentiseringsapp konfigurerar en vid nästa inloggning. Sessioner som redan är öppna förblir öppna.',
};
