import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeContract, mailsTo, startSigningEnv, type SigningEnv } from '../helpers/signing';

/**
 * The three carriers of a party's verified session (server/sign/verified-session.ts), attacked
 * over HTTP as a browser or a stranger would: the SameSite=Strict cookie, the partitioned cookie
 * for frames of another site (over HTTPS), and the X-Signing-Session header a framed page holds.
 */
describe('the verified session of a code link, in and out of frames', () => {
  let env: SigningEnv;
  beforeAll(async () => {
    // Parties reach the appliance over HTTPS (a proxy in front): the cookies are Secure.
    env = await startSigningEnv({ publicBaseUrl: 'https://sign.example.test' });
  });
  afterAll(() => env.close(), 60_000);

  /** The party's link on the test server (the HTTPS name is the proxy's, in front of it). */
  async function codeLink(name: string, email: string): Promise<string> {
    const contract = await makeContract(env.t, [{ name, email }], { require_auth: 'EMAIL_CODE' });
    await env.t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    return new URL(new URL(contract.parties[0]!.contract_url).pathname, env.t.url).toString();
  }

  async function askCode(link: string, email: string): Promise<{ code: string; csrf: string }> {
    const state = (await (await fetch(`${link}/state`)).json()) as { csrfToken: string };
    const before = mailsTo(env.smtp, email).length;
    const sent = await fetch(`${link}/code`, { method: 'POST', headers: { 'x-signing-csrf': state.csrfToken } });
    expect(sent.status).toBe(200);
    await expect.poll(() => mailsTo(env.smtp, email).length, { timeout: 15_000 }).toBeGreaterThan(before);
    const code = /Enter the code (\d{6})/.exec(mailsTo(env.smtp, email).at(-1)?.mail.text ?? '')?.[1];
    return { code: code!, csrf: state.csrfToken };
  }

  const verify = (link: string, code: string, csrf: string, headers: Record<string, string> = {}) =>
    fetch(`${link}/code/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signing-csrf': csrf, ...headers },
      body: JSON.stringify({ code }),
    });

  const cookieValue = (setCookies: string[], name: string) =>
    setCookies
      .find((line) => line.startsWith(`${name}=`))
      ?.split(';')[0]!
      .slice(name.length + 1);

  it('sets the strict cookie and, over HTTPS, a partitioned one for frames; the header only for a page that asks', async () => {
    const link = await codeLink('Anna Topp', 'anna@example.test');
    const { code, csrf } = await askCode(link, 'anna@example.test');
    const verified = await verify(link, code, csrf);
    expect(verified.status).toBe(200);
    // A page on its own never gets the session where script could read it.
    expect(verified.headers.get('x-signing-session')).toBeNull();
    const cookies = verified.headers.getSetCookie();
    const path = new URL(link).pathname;
    const strict = cookies.find((line) => line.startsWith('sd_party='))!;
    const framed = cookies.find((line) => line.startsWith('sd_party_framed='))!;
    expect(strict).toMatch(/; HttpOnly/);
    expect(strict).toMatch(/; Secure/);
    expect(strict).toMatch(/; SameSite=Strict/);
    expect(strict).toContain(`; Path=${path}`);
    expect(framed).toMatch(/; HttpOnly/);
    expect(framed).toMatch(/; Secure/);
    expect(framed).toMatch(/; SameSite=None/);
    expect(framed).toMatch(/; Partitioned/);
    expect(framed).toContain(`; Path=${path}`);
    // The partitioned cookie alone opens the document, as a frame of another site sends it.
    const value = cookieValue(cookies, 'sd_party_framed')!;
    const seen = await fetch(`${link}/document.pdf`, { headers: { cookie: `sd_party_framed=${value}` } });
    expect(seen.status).toBe(200);
  });

  it("gives a framed page its session in the header; the header opens this link only, and answers still need the page's CSRF token", async () => {
    const link = await codeLink('Bo Ram', 'bo@example.test');
    const other = await codeLink('Cia Annan', 'cia@example.test');
    const { code, csrf } = await askCode(link, 'bo@example.test');
    // A framed page sends the header before it holds a session.
    const verified = await verify(link, code, csrf, { 'x-signing-session': 'none' });
    expect(verified.status).toBe(200);
    const session = verified.headers.get('x-signing-session')!;
    expect(session).toMatch(/^\d{26}[\w-]{43}$/);
    const withSession = { 'x-signing-session': session };
    expect((await fetch(`${link}/document.pdf`, { headers: withSession })).status).toBe(200);
    const state = (await (await fetch(`${link}/state`, { headers: withSession })).json()) as { stage: string };
    expect(state.stage).toBe('ready');
    // Without it, or with it on another party's link, or altered: the code page and 403.
    expect((await fetch(`${link}/document.pdf`)).status).toBe(403);
    expect((await fetch(`${other}/document.pdf`, { headers: withSession })).status).toBe(403);
    const altered = session.slice(0, -1) + (session.endsWith('A') ? 'B' : 'A');
    expect((await fetch(`${link}/document.pdf`, { headers: { 'x-signing-session': altered } })).status).toBe(403);
    const extended = `${session.slice(0, 13)}${String(Number(session.slice(13, 26)) + 3_600_000)}${session.slice(26)}`;
    expect((await fetch(`${link}/document.pdf`, { headers: { 'x-signing-session': extended } })).status).toBe(403);
    // Used a few minutes later, the session moves on, and the page gets the new value to hold.
    env.t.clock.shift(5 * 60_000);
    try {
      const later = await fetch(`${link}/state`, { headers: withSession });
      const renewed = later.headers.get('x-signing-session');
      expect(renewed).toMatch(/^\d{26}[\w-]{43}$/);
      expect(renewed).not.toBe(session);
      expect(Number(renewed!.slice(13, 26))).toBeGreaterThan(Number(session.slice(13, 26)));
    } finally {
      env.t.clock.reset();
    }
    // A stranger's page holding the session still cannot answer without the page's CSRF token.
    const forged = await fetch(`${link}/reject`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...withSession },
      body: JSON.stringify({ cause: 'not me' }),
    });
    expect(forged.status).toBe(403);
    const rejected = await fetch(`${link}/reject`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signing-csrf': csrf, ...withSession },
      body: JSON.stringify({ cause: 'Wrong rent' }),
    });
    expect(rejected.status).toBe(200);
    expect(((await rejected.json()) as { stage: string }).stage).toBe('rejected');
  });
});
