import type { AppContext } from '../context/app-context';
import type { Worker } from '../jobs/worker';
import { readDiskSpace } from './disk-space';

/** How often the free space is looked at: a disk does not fill in minutes from uploads of 2 MiB. */
const EVERY_MS = 10 * 60_000;

/**
 * Says in the log when the data folder's disk turns low (and when it has room again), for an
 * office that runs the server headless and reads its log rather than the admin UI's warning.
 * Once per change, not every ten minutes.
 */
export function createDiskWatchWorker(ctx: AppContext): Worker {
  const logger = ctx.logger.child({ worker: 'disk-watch' });
  let timer: NodeJS.Timeout | undefined;
  let wasLow = false;
  let looking: Promise<void> = Promise.resolve();
  const look = async () => {
    try {
      const disk = await readDiskSpace(ctx.config.dataDir, ctx.config.lowDiskBytes);
      const fields = { dataDir: disk.data_folder, freeBytes: disk.free_bytes, lowBelowBytes: disk.low_below_bytes };
      if (disk.is_low && !wasLow)
        logger.warn(
          fields,
          "the data folder's disk is almost full: free some space, or move the data folder to a larger disk, before nothing new can be saved",
        );
      if (!disk.is_low && wasLow) logger.info(fields, "the data folder's disk has room again");
      wasLow = disk.is_low;
    } catch (error) {
      logger.warn({ err: error }, "the free space of the data folder's disk could not be read");
    }
  };
  return {
    name: 'disk-watch',
    start: () => {
      looking = look();
      timer = setInterval(() => (looking = look()), EVERY_MS);
      timer.unref();
    },
    stop: async () => {
      clearInterval(timer);
      await looking;
    },
  };
}
