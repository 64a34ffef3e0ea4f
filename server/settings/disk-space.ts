import fs from 'node:fs';
import type { TStorage } from '../../shared/api/storage';

/**
 * The free space on the disk of the data folder, and whether it is low: an office whose
 * contracts grow for years hears of a filling disk before it is full (when nothing new can be
 * saved), not after. One statfs call: the same cost whatever the office holds.
 */
export async function readDiskSpace(dataDir: string, lowBelowBytes: number): Promise<TStorage> {
  const disk = await fs.promises.statfs(dataDir);
  const free = disk.bavail * disk.bsize;
  return {
    data_folder: dataDir,
    free_bytes: free,
    total_bytes: disk.blocks * disk.bsize,
    low_below_bytes: lowBelowBytes,
    is_low: free < lowBelowBytes,
  };
}
