import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { ReadContext } from '../../context/read-context';

/** The keys of DKIM in the settings table; the private key is stored sealed (messaging-settings.ts). */
export const DKIM_KEYS = {
  domain: 'messaging.dkim_domain',
  selector: 'messaging.dkim_selector',
  privateKey: 'messaging.dkim_private_key',
} as const;

/** What nodemailer's own `dkim` option takes: every mail is signed with it. */
export type DkimKey = { domainName: string; keySelector: string; privateKey: string };

/** The key as a KeyObject, or why it cannot sign: DKIM takes RSA (2048 bits or more here) or Ed25519 (RFC 8463). */
export function checkDkimKey(pem: string): { key: KeyObject } | { error: string } {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    return { error: 'private_key: is not a PEM private key (-----BEGIN PRIVATE KEY----- …)' };
  }
  if (key.asymmetricKeyType === 'ed25519') return { key };
  if (key.asymmetricKeyType !== 'rsa') return { error: 'private_key: must be an RSA or Ed25519 key' };
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < 2048) return { error: `private_key: an RSA key of ${bits} bits; at least 2048` };
  return { key };
}

/** The TXT record receivers look up: `<selector>._domainkey.<domain>`, `v=DKIM1; k=rsa; p=<public key>`. */
export function dkimDnsRecord(key: DkimKey): { name: string; type: 'TXT'; value: string } | null {
  const checked = checkDkimKey(key.privateKey);
  if ('error' in checked) return null;
  const isEd25519 = checked.key.asymmetricKeyType === 'ed25519';
  const spki = createPublicKey(checked.key).export({ format: 'der', type: 'spki' });
  // Ed25519 publishes the bare 32-byte key (RFC 8463), RSA its SubjectPublicKeyInfo.
  const publicKey = isEd25519 ? spki.subarray(spki.length - 32) : spki;
  return {
    name: `${key.keySelector}._domainkey.${key.domainName}`,
    type: 'TXT',
    value: `v=DKIM1; k=${isEd25519 ? 'ed25519' : 'rsa'}; p=${publicKey.toString('base64')}`,
  };
}

/** The DKIM key in force, when domain, selector and key are all saved. */
export async function readDkim(
  ctx: ReadContext,
  open: (key: string, stored: string | undefined) => string | undefined,
): Promise<DkimKey | undefined> {
  const saved = await ctx.repos.settings.getMany(Object.values(DKIM_KEYS));
  const domainName = saved.get(DKIM_KEYS.domain);
  const keySelector = saved.get(DKIM_KEYS.selector);
  const privateKey = open(DKIM_KEYS.privateKey, saved.get(DKIM_KEYS.privateKey));
  return domainName && keySelector && privateKey ? { domainName, keySelector, privateKey } : undefined;
}
