import { createHash } from 'node:crypto';
import type { Ed25519Signer } from '../crypto/webhook-keys';

/**
 * RFC 9421 HTTP Message Signatures, the part a sender needs: the signature base of section 2.5
 * and the Signature-Input / Signature fields of section 4, for components whose values the
 * caller resolves (derived ones like @method and @path, and header fields).
 */
export type CoveredComponent = { name: string; value: string };
/** Signature parameters in order; numbers are sf-integers, strings sf-strings. */
export type SignatureParameter = [name: string, value: number | string];

const SF_STRING = /^[\x20-\x7e]*$/;

function serializeParameterValue(value: number | string): string {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`signature parameter ${value} is not an integer`);
    return String(value);
  }
  if (!SF_STRING.test(value)) throw new Error('signature parameter strings must be printable ASCII');
  return `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

/** The value of @signature-params: the inner list of component names with its parameters (RFC 8941). */
export function serializeSignatureParams(
  componentNames: readonly string[],
  parameters: readonly SignatureParameter[],
): string {
  const names = componentNames.map((name) => serializeParameterValue(name)).join(' ');
  const params = parameters.map(([name, value]) => `;${name}=${serializeParameterValue(value)}`).join('');
  return `(${names})${params}`;
}

/** The signature base (RFC 9421 section 2.5): one line per component, then @signature-params, no trailing newline. */
export function buildSignatureBase(
  components: readonly CoveredComponent[],
  parameters: readonly SignatureParameter[],
): { base: string; signatureParams: string } {
  const signatureParams = serializeSignatureParams(
    components.map((component) => component.name),
    parameters,
  );
  const lines = components.map(({ name, value }) => {
    if (/[\r\n]/.test(value)) throw new Error(`component ${name} has a line break`);
    return `"${name}": ${value.trim()}`;
  });
  lines.push(`"@signature-params": ${signatureParams}`);
  return { base: lines.join('\n'), signatureParams };
}

/** RFC 9530 Content-Digest with sha-256, as an RFC 8941 dictionary with a byte sequence. */
export function contentDigest(body: Buffer): string {
  return `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
}

export const SIGNATURE_LABEL = 'sig1';
export const SIGNATURE_LIFETIME_S = 300;
export const COVERED_COMPONENTS = ['@method', '@path', 'host', 'date', 'content-digest'] as const;

export type SignedRequestInput = {
  url: URL;
  body: Buffer;
  keyId: string;
  signer: Ed25519Signer;
  nowMs: number;
};

/**
 * The headers of one webhook POST, signed afresh (RFC 9421; docs/decisions.md, "Webhooks"): Content-Digest,
 * Date, Signature-Input (sig1 over @method @path host date content-digest; keyid, alg,
 * created, expires = created + 300) and Signature.
 */
export function signWebhookRequest(input: SignedRequestInput): Record<string, string> {
  const { url, body, keyId, signer, nowMs } = input;
  const created = Math.floor(nowMs / 1000);
  const digest = contentDigest(body);
  const date = new Date(created * 1000).toUTCString();
  const host = url.host;
  const { base, signatureParams } = buildSignatureBase(
    [
      { name: '@method', value: 'POST' },
      { name: '@path', value: url.pathname || '/' },
      { name: 'host', value: host },
      { name: 'date', value: date },
      { name: 'content-digest', value: digest },
    ],
    [
      ['keyid', keyId],
      ['alg', 'ed25519'],
      ['created', created],
      ['expires', created + SIGNATURE_LIFETIME_S],
    ],
  );
  const signature = signer.sign(Buffer.from(base)).toString('base64');
  return {
    host,
    date,
    'content-type': 'application/json',
    'content-length': String(body.length),
    'content-digest': digest,
    'signature-input': `${SIGNATURE_LABEL}=${signatureParams}`,
    signature: `${SIGNATURE_LABEL}=:${signature}:`,
    'user-agent': 'SignDesk-Webhooks/1',
  };
}
