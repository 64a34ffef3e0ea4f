import { describe, expect, it } from 'vitest';
import { loadAppSecret as loadFrom, SEALED_PREFIX } from '../../server/crypto/app-secret';
import { createFileKeyStore } from '../../server/crypto/file-key-store';
import { makeTempDir } from '../helpers/server';

const loadAppSecret = (dir: string) => loadFrom(createFileKeyStore(dir));

describe('the app secret seals', () => {
  it('under a fresh IV every time, past the first pool of IVs, and opens for its purpose only', async () => {
    const secret = await loadAppSecret(makeTempDir('signdesk-app-secret-'));
    const sealed = Array.from({ length: 600 }, (_, index) => secret.seal('outbox-body', `Åsa ${index % 3}`));
    const ivs = sealed.map((value) =>
      Buffer.from(value.slice(SEALED_PREFIX.length), 'base64url').subarray(0, 12).toString('hex'),
    );
    expect(new Set(ivs).size).toBe(sealed.length);
    expect(sealed.map((value) => secret.open('outbox-body', value))).toEqual(
      sealed.map((_, index) => `Åsa ${index % 3}`),
    );
    expect(secret.open('sign-link', sealed[0] as string)).toBeUndefined();
  });

  it('opens what another load of the same key file sealed', async () => {
    const keys = makeTempDir('signdesk-app-secret-');
    const sealed = (await loadAppSecret(keys)).seal('sign-link', 'token');
    expect((await loadAppSecret(keys)).open('sign-link', sealed)).toBe('token');
  });
});
