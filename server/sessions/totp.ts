import { randomInt } from 'node:crypto';
import { generateSecret, generateURI, verifySync } from 'otplib';
import QRCode from 'qrcode';

/**
 * Authenticator-app codes (TOTP, RFC 6238: HMAC-SHA1, six digits, 30-second steps, what every
 * authenticator app reads from a QR code), through otplib. A code of the step before or after
 * the server's is taken too (a phone's clock a little off, a code typed as it changed).
 */
const PERIOD_SECONDS = 30;
const TOLERANCE_SECONDS = 30;
const CODE = /^[0-9]{6}$/;

export const newTotpSecret = (): string => generateSecret({ length: 20 });

/** The otpauth:// URI an authenticator app reads from the QR code: the office as issuer, the user as label. */
export const totpUri = (issuer: string, label: string, secret: string): string =>
  generateURI({ issuer, label, secret, period: PERIOD_SECONDS, digits: 6, algorithm: 'sha1' });

/** The QR code of the URI as an SVG document (no script, drawn as one path). */
export const qrCodeSvg = async (uri: string): Promise<string> =>
  QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });

/** Whether `code` looks like an authenticator code (six digits, spaces allowed as apps show them). */
export const isTotpShaped = (code: string): boolean => CODE.test(code.replace(/\s/g, ''));

/**
 * The time step of `code` when it is the secret's code near `nowMs`; undefined otherwise.
 * Whether that step was taken already is the database's to say (a compare-and-swap on
 * `last_step`), so that two requests with one code cannot both pass.
 */
export function matchTotp(secret: string, code: string, nowMs: number): number | undefined {
  const token = code.replace(/\s/g, '');
  if (!CODE.test(token)) return undefined;
  const result = verifySync({
    secret,
    token,
    epoch: Math.floor(nowMs / 1000),
    period: PERIOD_SECONDS,
    epochTolerance: TOLERANCE_SECONDS,
  });
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}

/** Recovery codes: ten random characters (about 49 bits) from an alphabet without look-alikes, shown as xxxxx-xxxxx. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const RECOVERY_CODE_COUNT = 10;

export function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/** A recovery code as typed (any case, with or without the dash or spaces) in the form it was hashed in. */
export const normalizeRecoveryCode = (code: string): string => code.toLowerCase().replace(/[^a-z0-9]/g, '');
