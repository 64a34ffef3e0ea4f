import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTENT_SECURITY_POLICY, withContentSecurityPolicy } from '../../main/content-security';
import { chooseWindowUrl, createChildWindowOptions, createWindowOptions } from '../../main/window-options';

describe('the desktop window options', () => {
  const options = createWindowOptions({
    preload: '/app/dist/main/preload.cjs',
    icon: '/app/dist/main/assets/icon.png',
  });

  it('isolates and sandboxes the page and gives it no Node', () => {
    expect(options.webPreferences).toEqual({
      preload: '/app/dist/main/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: true,
    });
  });

  it('waits for the first paint before showing, with the app icon and title', () => {
    expect(options).toMatchObject({ show: false, title: 'SignDesk', icon: '/app/dist/main/assets/icon.png' });
  });

  it('hardens windows the app opens itself the same way, without the preload', () => {
    const child = createChildWindowOptions().webPreferences;
    expect(child).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webviewTag: false });
    expect(child).not.toHaveProperty('preload');
  });

  it('opens the one-time sign-in link when the server gives one on its own origin, else /admin', () => {
    const server = 'http://127.0.0.1:8750';
    expect(chooseWindowUrl(server, null)).toBe(`${server}/admin`);
    expect(chooseWindowUrl(server, `${server}/admin/session/one-time?token=abc`)).toBe(
      `${server}/admin/session/one-time?token=abc`,
    );
    expect(chooseWindowUrl(server, 'http://127.0.0.1:9999/admin/login?token=abc')).toBe(`${server}/admin`);
    expect(chooseWindowUrl(server, 'https://evil.example/?token=abc')).toBe(`${server}/admin`);
    expect(chooseWindowUrl(server, 'not a url')).toBe(`${server}/admin`);
  });
});

describe('the content security policy the shell adds', () => {
  it('puts the default policy on HTML pages that have none', () => {
    const headers = withContentSecurityPolicy({ 'Content-Type': ['text/html; charset=utf-8'] });
    expect(headers['Content-Security-Policy']).toEqual([DEFAULT_CONTENT_SECURITY_POLICY]);
    expect(DEFAULT_CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(DEFAULT_CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(DEFAULT_CONTENT_SECURITY_POLICY).not.toContain('unsafe');
  });

  it("keeps the server's own policy, whatever the header's case", () => {
    const own = "default-src 'self'";
    expect(withContentSecurityPolicy({ 'content-type': ['text/html'], 'content-security-policy': [own] })).toEqual({
      'content-type': ['text/html'],
      'content-security-policy': [own],
    });
  });

  it('leaves JSON and PDFs alone, and covers responses without a type', () => {
    expect(withContentSecurityPolicy({ 'Content-Type': ['application/json'] })).not.toHaveProperty(
      'Content-Security-Policy',
    );
    expect(withContentSecurityPolicy({ 'Content-Type': ['application/pdf'] })).not.toHaveProperty(
      'Content-Security-Policy',
    );
    expect(withContentSecurityPolicy({})).toHaveProperty('Content-Security-Policy');
    expect(withContentSecurityPolicy(undefined)).toHaveProperty('Content-Security-Policy');
  });
});
