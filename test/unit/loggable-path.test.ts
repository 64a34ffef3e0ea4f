import { describe, expect, it } from 'vitest';
import { loggablePath } from '../../server/http/problem';

describe('the path a log line keeps', () => {
  it('drops the secret of a signing link and of a one-time sign-in link', () => {
    expect(loggablePath('/sign/AbC-123_xyz/accept')).toBe('/sign/…/accept');
    expect(loggablePath('/sign/AbC-123_xyz')).toBe('/sign/…');
    expect(loggablePath('/sign/AbC-123_xyz/pages/2/1.png?x=1')).toBe('/sign/…/pages/2/1.png');
    expect(loggablePath('/admin/sign-in-link/s3cr3t')).toBe('/admin/sign-in-link/…');
    // Express's router matches any case (and the path as sent reaches the log): the secret goes all the same.
    expect(loggablePath('/SIGN/AbC-123_xyz/state')).toBe('/SIGN/…/state');
    expect(loggablePath('//sign//AbC-123_xyz')).toBe('/sign/…');
    expect(loggablePath('/Admin/Sign-In-Link/s3cr3t')).toBe('/Admin/Sign-In-Link/…');
  });

  it('keeps every other path as it is, without its query', () => {
    expect(loggablePath('/api/contracts/7/parties?page=2')).toBe('/api/contracts/7/parties');
    expect(loggablePath('/admin/contracts/7')).toBe('/admin/contracts/7');
    expect(loggablePath('/signing/sign/abc')).toBe('/signing/sign/abc');
  });
});
