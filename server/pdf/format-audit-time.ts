import { formatTimestamp, zoneOffsetMs } from '../../shared/time';

/** A time as the caller has it: epoch milliseconds, a Date, or a string already formatted. */
export type AuditTime = Date | number | string | null | undefined;

/** `YYYY-MM-DD HH:MM:SS +01:00` in the zone (the offset makes the audit trail unambiguous); undefined when there is no time. */
export function formatAuditTime(
  time: AuditTime,
  timeZone: string,
  options: { seconds?: boolean; offset?: boolean } = {},
): string | undefined {
  if (time === null || time === undefined || time === '') return undefined;
  if (typeof time === 'string') return time;
  const epoch = typeof time === 'number' ? time : time.getTime();
  if (!Number.isFinite(epoch)) return undefined;
  const full = formatTimestamp(epoch, timeZone);
  const local = options.seconds === false ? full.slice(0, 16) : full;
  if (options.offset === false) return local;
  const offsetMinutes = Math.round(zoneOffsetMs(epoch, timeZone) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const absolute = Math.abs(offsetMinutes);
  return `${local} ${sign}${String(Math.floor(absolute / 60)).padStart(2, '0')}:${String(absolute % 60).padStart(2, '0')}`;
}
