import { describe, expect, it } from 'vitest';
import {
  classifyUrl,
  decideNavigation,
  decidePermission,
  decideWindowOpen,
  isTrustedSender,
} from '../../main/url-rules';

const APP = 'http://127.0.0.1:8750';

describe('the desktop window URL rules', () => {
  it.each([
    ['http://127.0.0.1:8750/admin', 'app'],
    ['http://127.0.0.1:8750', 'app'],
    ['HTTP://127.0.0.1:8750/admin/contracts?x=1#top', 'app'],
    ['http://127.0.0.1:8751/admin', 'blocked'],
    ['http://localhost:8750/admin', 'blocked'],
    ['https://127.0.0.1:8750/admin', 'external'],
    ['http://127.0.0.1:8750.evil.example/', 'blocked'],
    ['http://127.0.0.1:8750@evil.example/', 'blocked'],
    ['http://evil.example/?next=http://127.0.0.1:8750', 'blocked'],
    ['https://www.electronjs.org/docs', 'external'],
    ['https://user:secret@example.com/', 'blocked'],
    ['http://example.com/', 'blocked'],
    ['javascript:alert(1)', 'blocked'],
    ['file:///etc/passwd', 'blocked'],
    ['data:text/html,<script>alert(1)</script>', 'blocked'],
    ['devtools://devtools/bundled/inspector.html', 'blocked'],
    ['not a url', 'blocked'],
    ['', 'blocked'],
  ])('classifies %s as %s', (url, expected) => {
    expect(classifyUrl(url, APP)).toBe(expected);
  });

  it('trusts nothing as the app before the server is up', () => {
    expect(classifyUrl('http://127.0.0.1:8750/admin', undefined)).toBe('blocked');
    expect(isTrustedSender('http://127.0.0.1:8750/admin', undefined)).toBe(false);
  });

  it('lets the window move within the app, sends https elsewhere to the browser, and blocks the rest', () => {
    expect(decideNavigation(`${APP}/admin/users`, APP)).toEqual({ allow: true });
    expect(decideNavigation('https://example.com/help', APP)).toEqual({
      allow: false,
      openExternal: 'https://example.com/help',
    });
    expect(decideNavigation('http://example.com/help', APP)).toEqual({ allow: false });
    expect(decideNavigation('file:///C:/Windows/system32', APP)).toEqual({ allow: false });
  });

  it('opens new windows only for the app itself, and https links in the system browser', () => {
    expect(decideWindowOpen(`${APP}/api/contracts/1/pdf`, APP)).toBe('child-window');
    expect(decideWindowOpen('https://example.com/', APP)).toBe('system-browser');
    expect(decideWindowOpen('http://example.com/', APP)).toBe('deny');
    expect(decideWindowOpen('smb://server/share', APP)).toBe('deny');
  });

  it('lets the preload API answer pages of the app only', () => {
    expect(isTrustedSender(`${APP}/admin`, APP)).toBe(true);
    expect(isTrustedSender('https://example.com/', APP)).toBe(false);
    expect(isTrustedSender(undefined, APP)).toBe(false);
  });

  it('grants clipboard writes to the app and nothing else to anyone', () => {
    expect(decidePermission('clipboard-sanitized-write', `${APP}/admin`, APP)).toBe(true);
    expect(decidePermission('clipboard-sanitized-write', 'https://example.com/', APP)).toBe(false);
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'openExternal',
      'fullscreen',
    ]) {
      expect(decidePermission(permission, `${APP}/admin`, APP)).toBe(false);
    }
  });
});
