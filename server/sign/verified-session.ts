import type { Request, Response } from 'express';
import type { AppContext } from '../context/app-context';
import type { PartyRow } from '../db/repos/parties';
import { readCookie } from '../http/session-cookie';
import { readVerifiedCookie, renewedSession, verifiedCookieValue, type VerifiedSession } from '../signing/party-code';
import { VERIFIED_COOKIE } from '../signing/party-from-link';

/** The same session for a frame of another site: a partitioned cookie (CHIPS), over HTTPS only. */
export const FRAMED_COOKIE = 'sd_party_framed';
/**
 * The same session held by the page itself (in memory and the tab's sessionStorage), for a
 * frame whose browser keeps no cookie at all (plain-HTTP appliances, Safari's third-party
 * blocking): sent by the page's own requests as this header, answered with the renewed value.
 * A header needs the page's script: a stranger's page cannot attach it (no CORS), links and
 * image URLs never carry it, so it is not written to any access log.
 */
export const SESSION_HEADER = 'x-signing-session';

/**
 * Where a party's browser proves it entered the one-time code: the `sd_party` cookie
 * (SameSite=Strict, path = the link: the signing page opened on its own), the partitioned
 * `sd_party_framed` cookie (SameSite=None; Secure; Partitioned: a frame of an allowed site over
 * HTTPS), or the `X-Signing-Session` header (the page's own copy). All three carry the same
 * MAC'd value (party-code.ts); whichever is valid opens the link, and each is renewed as used.
 */
export function verifiedSessions(ctx: AppContext) {
  const isSecure = (req: Request) => req.secure || ctx.partyBaseUrl().startsWith('https:');
  /**
   * The header answers only a page that asked for it: a framed page's code (it sent the header)
   * or the renewal of a session the header carried. A cookie's value is never readable by script.
   */
  const write = (req: Request, res: Response, party: PartyRow, session: VerifiedSession, toHeader: boolean) => {
    const value = verifiedCookieValue(ctx, party, session);
    const common = { httpOnly: true, path: `/sign/${String(req.params.token)}`, expires: new Date(session.expiresAt) };
    res.cookie(VERIFIED_COOKIE, value, { ...common, sameSite: 'strict', secure: isSecure(req) });
    if (isSecure(req))
      res.cookie(FRAMED_COOKIE, value, { ...common, sameSite: 'none', secure: true, partitioned: true });
    if (toHeader) res.setHeader('X-Signing-Session', value);
  };
  return {
    /** A live session this request proves, renewed (cookies and header answer) when due. */
    read(req: Request, res: Response, party: PartyRow): VerifiedSession | undefined {
      const header = req.headers[SESSION_HEADER];
      const candidates = [
        readCookie(req, VERIFIED_COOKIE),
        readCookie(req, FRAMED_COOKIE),
        typeof header === 'string' && header.length <= 100 ? header : undefined,
      ];
      for (const [index, candidate] of candidates.entries()) {
        const session = readVerifiedCookie(ctx, party, candidate);
        if (!session) continue;
        const renewed = renewedSession(session, ctx.now());
        if (renewed) write(req, res, party, renewed, index === 2);
        return session;
      }
      return undefined;
    },
    /** A new session after the right code: every carrier at once; the page learns which reach it. */
    start: (req: Request, res: Response, party: PartyRow, session: VerifiedSession) =>
      write(req, res, party, session, req.headers[SESSION_HEADER] !== undefined),
  };
}
