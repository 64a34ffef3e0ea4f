/**
 * Sizes as upload limits name them: a limit in whole MiB or KiB ("2 MiB"), a file's size in the
 * same unit with one decimal, rounded up so that a file over the limit never reads as equal to it
 * ("2.1 MiB"), with the language's decimal sign (Swedish "2,1 MiB").
 */
const MIB = 1024 * 1024;
const KIB = 1024;

/** A language code (en, sv, …). */
export type SizeLocale = string;

const decimal = (value: number, locale: SizeLocale) =>
  new Intl.NumberFormat(locale, { useGrouping: false, maximumFractionDigits: 1 }).format(value);

export function formatLimit(bytes: number, locale: SizeLocale = 'en'): string {
  if (bytes >= MIB) return `${decimal(Math.round((bytes / MIB) * 10) / 10, locale)} MiB`;
  if (bytes >= KIB) return `${decimal(Math.round((bytes / KIB) * 10) / 10, locale)} KiB`;
  return `${bytes} ${locale === 'sv' ? 'byte' : 'bytes'}`;
}

export function formatSize(bytes: number, limit: number, locale: SizeLocale = 'en'): string {
  const unit = limit >= MIB ? MIB : KIB;
  const name = limit >= MIB ? 'MiB' : 'KiB';
  return `${decimal(Math.ceil((bytes / unit) * 10) / 10, locale)} ${name}`;
}

const GIB = 1024 * MIB;
const TIB = 1024 * GIB;

/** A disk's space in its largest whole unit with one decimal, rounded down: "12.3 GiB", "1.8 TiB", "512 MiB". */
export function formatDiskSpace(bytes: number, locale: SizeLocale = 'en'): string {
  const [unit, name] = bytes >= TIB ? [TIB, 'TiB'] : bytes >= GIB ? [GIB, 'GiB'] : [MIB, 'MiB'];
  return `${decimal(Math.floor((bytes / unit) * 10) / 10, locale)} ${name}`;
}

/** The API's words for an upload over its limit: "The PDF is 2.3 MiB; the limit is 2 MiB." */
export function tooLargeDetail(what: string, size: number | undefined, limit: number): string {
  return size === undefined || !Number.isFinite(size) || size <= limit
    ? `The ${what} is larger than the limit of ${formatLimit(limit)}.`
    : `The ${what} is ${formatSize(size, limit)}; the limit is ${formatLimit(limit)}.`;
}
