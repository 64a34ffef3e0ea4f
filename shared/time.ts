/**
 * API timestamps: `YYYY-MM-DD HH:MM:SS` wall-clock time in a named IANA zone.
 * Pure Intl, so that the server and the renderer format the same way.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

type WallClock = { year: number; month: number; day: number; hour: number; minute: number; second: number };

function wallClock(epochMs: number, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(epochMs)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 0,
    day: parts.day ?? 0,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** Zone offsets change only on quarter-hour boundaries, so one Intl call serves a whole quarter. */
const QUARTER_HOUR_MS = 15 * 60 * 1000;
const offsetCache = new Map<string, number>();
const last = { quarter: Number.NaN, timeZone: '', offset: 0 };
const lastFormatted = { second: Number.NaN, timeZone: '', text: '' };

/** The zone's offset from UTC at that moment, in milliseconds (e.g. 3,600,000 for CET). */
export function zoneOffsetMs(epochMs: number, timeZone: string): number {
  const quarter = Math.floor(epochMs / QUARTER_HOUR_MS);
  // Most calls ask for the same zone and quarter as the one before: answered without a key.
  if (quarter === last.quarter && timeZone === last.timeZone) return last.offset;
  const key = `${timeZone}|${quarter}`;
  let offset = offsetCache.get(key);
  if (offset === undefined) {
    const start = quarter * QUARTER_HOUR_MS;
    const t = wallClock(start, timeZone);
    offset = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second) - start;
    if (offsetCache.size > 10_000) offsetCache.clear();
    offsetCache.set(key, offset);
  }
  last.quarter = quarter;
  last.timeZone = timeZone;
  last.offset = offset;
  return offset;
}

export function formatTimestamp(epochMs: number, timeZone: string): string {
  const second = Math.floor(epochMs / 1000);
  // A resource read again and again carries the same times: the last one is kept.
  if (second === lastFormatted.second && timeZone === lastFormatted.timeZone) return lastFormatted.text;
  const iso = new Date(second * 1000 + zoneOffsetMs(epochMs, timeZone)).toISOString();
  const text = `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
  lastFormatted.second = second;
  lastFormatted.timeZone = timeZone;
  lastFormatted.text = text;
  return text;
}

/** Parses an API timestamp in `timeZone`; undefined when it is not a real wall-clock time. */
export function parseTimestamp(text: string, timeZone: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  // The zone's offset can differ on either side of a DST change; two rounds settle it.
  let guess = asUtc;
  for (let round = 0; round < 2; round += 1) {
    const seen = wallClock(guess, timeZone);
    const seenAsUtc = Date.UTC(seen.year, seen.month - 1, seen.day, seen.hour, seen.minute, seen.second);
    guess += asUtc - seenAsUtc;
  }
  return formatTimestamp(guess, timeZone) === text ? guess : undefined;
}

/**
 * RFC 3339's profile of ISO 8601: a date, `T`, a time (a fraction of a second allowed) and `Z`
 * or an offset `±HH:MM`. One instant wherever it is read, unlike the office-time form.
 */
const OFFSET_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** An ISO 8601 time with `Z` or an offset, to the millisecond (a finer fraction is cut); undefined when it is no real time. */
export function parseOffsetTimestamp(text: string): number | undefined {
  const match = OFFSET_TIME.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [fraction = '', sign, offsetHours = '0', offsetMinutes = '0'] = match.slice(7);
  if (hour > 23 || minute > 59 || second > 59 || Number(offsetHours) > 23 || Number(offsetMinutes) > 59)
    return undefined;
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const date = new Date(wall);
  // Date.UTC rolls 30 February over to March: a day that does not exist is refused.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  const offsetMs = (Number(offsetHours) * 60 + Number(offsetMinutes)) * 60_000 * (sign === '-' ? -1 : 1);
  return wall - offsetMs + Number(fraction.slice(0, 3).padEnd(3, '0'));
}

/**
 * A time a list filter takes (`updated_since`): today's `YYYY-MM-DD HH:MM:SS` in the office's
 * zone, exactly as before, or an ISO 8601 time with `Z` or an offset. An offset's `+` sent
 * unescaped in a query string arrives as a space (`T10:00:00 01:00`); nothing else has that
 * shape, so it is read as the `+` it was.
 */
export function parseFilterTimestamp(text: string, timeZone: string): number | undefined {
  if (text.length > 10 && (text[10] === 'T' || text[10] === 't'))
    return parseOffsetTimestamp(text.replace(/ (\d{2}:\d{2})$/, '+$1'));
  return parseTimestamp(text, timeZone);
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}
