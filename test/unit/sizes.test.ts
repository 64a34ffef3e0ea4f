import { describe, expect, it } from 'vitest';
import { formatDiskSpace, formatLimit, formatSize } from '../../shared/sizes';

describe('sizes as the admin UI names them', () => {
  it('names a disk’s space in its largest unit, rounded down, with a decimal comma in Swedish', () => {
    expect(formatDiskSpace(12.36 * 2 ** 30)).toBe('12.3 GiB');
    expect(formatDiskSpace(12.36 * 2 ** 30, 'sv')).toBe('12,3 GiB');
    expect(formatDiskSpace(1.85 * 2 ** 40)).toBe('1.8 TiB');
    expect(formatDiskSpace(512 * 2 ** 20)).toBe('512 MiB');
    // Just under 2 GiB never reads as 2 GiB: a warning at "below 2 GiB" must not show "2 GiB free".
    expect(formatDiskSpace(2 ** 31 - 1)).toBe('1.9 GiB');
    expect(formatDiskSpace(0)).toBe('0 MiB');
  });

  it('names an upload over its limit so that it never reads as the limit', () => {
    expect(formatLimit(2 * 2 ** 20)).toBe('2 MiB');
    expect(formatSize(2 * 2 ** 20 + 1, 2 * 2 ** 20)).toBe('2.1 MiB');
    expect(formatSize(2 * 2 ** 20 + 1, 2 * 2 ** 20, 'sv')).toBe('2,1 MiB');
  });
});
