import type { enMailWords } from './en-mail-words';

/** Svenska för kontorets egna ord i mejlen och för DKIM. */
export const svMailWords: Record<keyof typeof enMailWords, string> = {
  'mailWords.title': 'Ord i mejlen',
  'mailWords.description':
    'Kontorets egen ämnesrad och text i inbjudan, påminnelsen och mejlet om underskrivet dokument, per språk. Ett språk utan egna ord använder SignDesks. Knappen till dokumentet, layouten och sidfoten står kvar.',
  'mailWords.kind': 'Mejl',
  'mailWords.kind.invitation': 'Inbjudan att skriva under',
  'mailWords.kind.reminder': 'Påminnelse',
  'mailWords.kind.signed': 'Underskrivet (dokumentet till parten)',
  'mailWords.language': 'Mejlets språk',
  'mailWords.subject': 'Ämne',
  'mailWords.body': 'Text',
  'mailWords.bodyHint':
    'Vanlig text: en tom rad börjar ett nytt stycke. Lämna båda fälten tomma för att behålla SignDesks ord.',
  'mailWords.ownSaved': 'Kontorets egna ord är sparade för detta mejl och språk.',
  'mailWords.defaultInUse': 'SignDesks ord används för detta mejl och språk.',
  'mailWords.placeholders': 'Platshållare (SignDesk sätter in värdena som vanlig text):',
  'mailWords.placeholder.party_name': 'partens namn',
  'mailWords.placeholder.contract_name': 'avtalets namn',
  'mailWords.placeholder.link': 'partens länk till dokumentet',
  'mailWords.placeholder.expiry': 'när inbjudan går ut',
  'mailWords.placeholder.office_name': 'kontorets namn',
  'mailWords.preview': 'Förhandsvisning med exempelvärden',
  'mailWords.ownWords': 'Kontorets ord',
  'mailWords.defaultWords': 'SignDesks ord',
  'mailWords.reset': 'Tillbaka till SignDesks ord',
  'mailWords.resetDone': 'SignDesks ord gäller igen för detta mejl och språk.',
  'mailWords.testTo': 'Skicka detta mejl som test till',
  'dkim.title': 'DKIM: mejl signerade för kontorets domän',
  'dkim.description':
    'Med en DKIM-nyckel bär varje mejl från SignDesk en signatur som mottagarna kontrollerar mot domänens DNS, så att mejlen inte tas för skräppost eller förfalskningar.',
  'dkim.on': 'På',
  'dkim.off': 'Av',
  'dkim.onText': 'Mejlen signeras för {domain} med selektorn {selector}.',
  'dkim.offText': 'Mejlen signeras inte. Ange domänen, en selektor och en privat nyckel för att signera dem.',
  'dkim.domain': 'Domän',
  'dkim.domainHint': 'Avsändaradressens domän (MAIL_FROM), till exempel kontoret.se.',
  'dkim.selector': 'Selektor',
  'dkim.selectorHint': 'Valfritt namn på nyckeln, till exempel signdesk eller mail2026.',
  'dkim.privateKey': 'Privat nyckel (PEM)',
  'dkim.privateKeyHint':
    'En RSA-nyckel på minst 2048 bitar, eller Ed25519, i PEM-format. Den lagras krypterad och visas aldrig igen.',
  'dkim.privateKeySavedHint':
    'En nyckel är sparad (den visas aldrig). Klistra in en ny för att byta den, eller lämna fältet tomt för att behålla den.',
  'dkim.turnOff': 'Stäng av DKIM',
  'dkim.turnedOff': 'DKIM är avstängt: nyckeln är borttagen och mejlen signeras inte längre.',
  'dkim.dns': 'DNS-poster att publicera',
  'dkim.recordName': 'Namn',
  'dkim.recordType': 'Typ',
  'dkim.recordValue': 'Värde',
  'dkim.copyRecord': 'Kopiera postens värde',
  'dkim.dnsLater':
    'När domän, selektor och nyckel är sparade visas här TXT-posten att publicera på SELEKTOR._domainkey.DOMÄN (v=DKIM1 med den publika nyckeln).',
  'dkim.spfDmarc':
    'Domänen behöver också en SPF-post (TXT, till exempel v=spf1 include:spf.e-postleverantor.example -all) som anger SMTP-servern SignDesk skickar genom, och en DMARC-post på _dmarc.DOMÄN (till exempel v=DMARC1; p=quarantine); DKIM måste använda avsändaradressens domän för att DMARC ska godkännas.',
};
