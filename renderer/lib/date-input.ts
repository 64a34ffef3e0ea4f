/**
 * The admin UI's date and time entry, in one place: API timestamps (`YYYY-MM-DD HH:MM:SS`, in
 * the office's time zone) edited as a `YYYY-MM-DD` date and a 24-hour `HH:MM` time, whatever the
 * browser's locale (a native date control would show mm/dd/yyyy to an en-US browser).
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** The time a date alone stands for: the end of that day, as "links close on …" means it. */
export const END_OF_DAY = '23:59';

export const isDateText = (text: string): boolean => {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
};

export const isTimeText = (text: string): boolean => TIME.test(text);

/** `2026-12-01 17:30:00` -> { date: '2026-12-01', time: '17:30' }; empty for none. */
export function splitTimestamp(timestamp: string | null): { date: string; time: string } {
  if (!timestamp) return { date: '', time: '' };
  return { date: timestamp.slice(0, 10), time: timestamp.slice(11, 16) };
}

export type JoinedTimestamp = { value: string | null } | { problem: 'date' | 'time' };

/** The API timestamp of a date and a time (empty time: the end of the day); null when both are empty. */
export function joinTimestamp(date: string, time: string): JoinedTimestamp {
  const day = date.trim();
  const clock = time.trim();
  if (day === '' && clock === '') return { value: null };
  if (!isDateText(day)) return { problem: 'date' };
  if (clock !== '' && !isTimeText(clock)) return { problem: 'time' };
  return { value: `${day} ${clock || END_OF_DAY}:00` };
}
