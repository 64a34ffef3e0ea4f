import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import { logOfficeEvent } from '../activity/office-log';
import type { RequestOrigin } from './start-session';

/** The settings key of "every staff user signs in with two factors". */
const REQUIRE_KEY = 'sign_in.require_two_factors';

/** Reads the rule; needs only the settings' reads (a route's view has them). */
export async function isTwoFactorRequired(ctx: {
  repos: { settings: { get(key: string): Promise<string | undefined> } };
}): Promise<boolean> {
  return (await ctx.repos.settings.get(REQUIRE_KEY)) === 'true';
}

/**
 * Turns the rule on or off. Sessions already open stay open; whoever has no second factor is
 * led through setting one up at their next sign-in.
 */
export async function setTwoFactorRequired(
  ctx: AppContext,
  isRequired: boolean,
  origin: RequestOrigin & { userId: number },
): Promise<boolean> {
  await inTransaction(ctx.db, async () => {
    if ((await isTwoFactorRequired(ctx)) === isRequired) return;
    await ctx.repos.settings.set(REQUIRE_KEY, String(isRequired), ctx.now());
    await logOfficeEvent(ctx, {
      event: 'settings.changed',
      subject: '/api/settings/sign-in',
      ...origin,
      details: { fields: 'require_two_factors', require_two_factors: isRequired },
    });
  });
  return isRequired;
}
