import type { enReach } from './en-reach';

/** Svenska för publik åtkomst. En del av `sv`. */
export const svReach: Record<keyof typeof enReach, string> = {
  'reach.title': 'Publik åtkomst',
  'reach.description':
    'Hur parter utanför kontoret når sina signeringslänkar. Den publika adressen visar bara signerings- och verifieringssidorna; administrationen och API:t stannar på kontorets adress.',
  'reach.publicAddress': 'Länkar till parter',
  'reach.mode': 'Läge',
  'reach.mode.off': 'En adress för kontoret och parterna (ingen separat publik lyssnare)',
  'reach.mode.plain-http':
    'Publik lyssnare över vanlig HTTP (bara för en tunnel med egen HTTPS, eller nätverket på kontoret)',
  'reach.mode.pem-files': 'HTTPS med kontorets certifikatfiler',
  'reach.mode.acme': 'HTTPS med SignDesks eget certifikat (ACME)',
  'reach.mode.behind-proxy': 'Bakom en omvänd proxy som står för HTTPS',
  'reach.listener': 'Publik lyssnare',
  'reach.noListener': 'Ingen: kontorets adress visar allt',
  'reach.proxies': 'Betrodda proxyer',
  'reach.noProxies': 'Inga: vidarebefordrade huvuden ignoreras',
  'reach.certificate': 'Certifikat',
  'reach.certificateFor': '{subject}, utfärdat av {issuer}',
  'reach.certificateValid': 'Giltigt till {time}; för {names}',
  'reach.certificateError': 'Senaste certifikatbytet misslyckades; certifikatet ovan används fortfarande',
  'reach.loopback':
    'Länkarna går nu till {url}, som bara den här datorn kan öppna. Parter på andra ställen kan inte signera.',
  'reach.private':
    'Länkarna går nu till {url}, som bara enheter i kontorets nätverk kan öppna. Parter utanför kan inte signera.',
  'reach.listenerError': 'Den publika lyssnaren startade inte',
  'reach.restartNeeded': 'Den sparade porten och adressen gäller från nästa start av SignDesk.',
  'reach.port': 'Publik port',
  'reach.portHint':
    'Porten som routern vidarebefordrar till den här datorn (t.ex. 443 eller 8443). Tom: ingen publik lyssnare. Gäller från nästa start.',
  'reach.host': 'Lyssna på adress',
  'reach.hostHint': '0.0.0.0: alla den här datorns nätverk. Gäller från nästa start.',
  'reach.fromEnvironment': 'Kommer nu från miljön (PUBLIC_PORT); ett värde som sparas här gäller i stället.',
  'reach.check': 'Kontrollera den publika adressen',
  'reach.checkOk': 'Den här SignDesk svarade på {url} ({ms} ms).',
  'reach.checkFailed': 'Kontrollen misslyckades: {stage}',
  'reach.stage.address': 'adressen',
  'reach.stage.dns': 'DNS (namnet finns inte)',
  'reach.stage.connect': 'porten (ingen anslutning)',
  'reach.stage.tls': 'certifikatet (TLS)',
  'reach.stage.http': 'svaret (HTTP)',
  'reach.stage.identity': 'en annan server svarade',
  'reach.stage.exposed': 'kontoret är öppet mot internet på den här adressen',
  'reach.officePaths': 'Svarade utifrån: {paths}',
  'reach.docs': 'Recept för vidarebefordran i routern, Caddy, nginx och tunnlar finns i docs/reach.md.',
  'send.linkLoopback':
    'Signeringslänkarna går till {url}, som bara den här datorn kan öppna: {names} skulle inte kunna öppna sina. Ange den publika adressen under Inställningar → Publik åtkomst först.',
  'send.linkPrivate':
    'Signeringslänkarna går till {url}, som bara kontorets nätverk kan öppna: {names} skulle inte kunna öppna sina utifrån.',
};
