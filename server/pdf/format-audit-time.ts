/** A time as the caller has it: epoch milliseconds, a Date, or a string already formatted. */
export type AuditTime = Date | number | string | null | undefined;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** `YYYY-MM-DD HH:MM:SS +01:00` in the zone (the offset makes the audit trail unambiguous); undefined when there is no time. */
export function formatAuditTime(time: AuditTime, timeZone: string, options: { seconds?: boolean; offset?: boolean } = {}): string | undefined {
  if (time === null || time === undefined || time === '') return undefined;
  if (typeof time === 'string') return time;
  const epoch = typeof time === 'number' ? time : time.getTime();
  if (!Number.isFinite(epoch)) return undefined;
  const parts = Object.fromEntries(formatterFor(timeZone).formatToParts(epoch).map((part) => [part.type, part.value]));
  const local = `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}${options.seconds === false ? '' : `:${parts.second}`}`;
  if (options.offset === false) return local;
  const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  const offsetMinutes = Math.round((asUtc - Math.floor(epoch / 1000) * 1000) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const absolute = Math.abs(offsetMinutes);
  return `${local} ${sign}${String(Math.floor(absolute / 60)).padStart(2, '0')}:${String(absolute % 60).padStart(2, '0')}`;
}
