import type { ReadContext } from '../../context/read-context';
import type { AppContext } from '../../context/app-context';

/** The latest comparison of this PC's clock with a timestamp authority's. */
const CLOCK_CHECK_KEY = 'timestamps.clock_check';

export type ClockCheck = { authorityTime: number; offsetMs: number };

/**
 * Records the comparison made at every timestamp (a seal's, a document timestamp, an office
 * anchor, the settings' test): the admin UI warns from it at once, not only after the next seal.
 * The daily office anchor makes this at least a daily check while an authority is set.
 */
export async function recordClockCheck(ctx: AppContext, check: ClockCheck): Promise<void> {
  await ctx.repos.settings.set(CLOCK_CHECK_KEY, JSON.stringify(check), ctx.now());
}

export async function readClockCheck(ctx: ReadContext): Promise<ClockCheck | undefined> {
  const text = await ctx.repos.settings.get(CLOCK_CHECK_KEY);
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as Partial<ClockCheck>;
    return typeof parsed.authorityTime === 'number' && typeof parsed.offsetMs === 'number'
      ? { authorityTime: parsed.authorityTime, offsetMs: parsed.offsetMs }
      : undefined;
  } catch {
    return undefined;
  }
}
