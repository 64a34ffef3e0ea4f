import { AppError } from './errors';

/** Error codes that mean the disk (or the user's quota on it) has no room left. */
const FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

/** Whether an error (or its cause) says the disk is full: SQLite's SQLITE_FULL, or ENOSPC/EDQUOT from the file system. */
export function isStorageFull(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && FULL_CODES.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export const storageFullProblem = () =>
  new AppError(
    'insufficient-storage',
    "The appliance's disk is full: nothing was saved. Free some space on the disk of SignDesk's data folder and try again.",
  );

/**
 * Runs a write that only records a fact a read noticed (a session seen, a link opened): on a
 * full disk it is skipped, so that reads go on working, and `onSkipped` hears of it.
 */
export async function unlessStorageFull(write: () => Promise<unknown>, onSkipped: () => void): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (!isStorageFull(error)) throw error;
    onSkipped();
  }
}
