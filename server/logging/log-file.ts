import fs from 'node:fs';

/**
 * The log file as a pino destination that can never crash or hang the process. Lines are
 * appended in order by one write at a time; when the disk is full (or the file cannot be
 * written for any other reason) lines are dropped, not queued without end and not retried in
 * a loop: the file is tried again a few seconds later, and the first line that lands says how
 * many were lost. pino's own file destination turns such an error into an uncaught exception
 * whose exit hook retries the write for ever.
 *
 * Every request has a line (http/access-log.ts), the party listener's from the internet too, so
 * the file is bounded: past `maxFileBytes` it is moved aside as `<file>.1` (`.1` to `.2`, …, the
 * oldest beyond `keptFiles` removed) and a new one begun. That happens between two writes, once
 * per file's worth of lines, never within a line.
 */
export type LogFile = {
  write(line: string): boolean;
  /** Writes what is queued now, once; gives up (dropping it) on any error. Never waits or retries. */
  flushSync(): void;
  /** Lines lost so far to write errors or a full queue. */
  dropped(): number;
  /**
   * Resolves once what is queued now is on disk (or dropped): a process about to exit waits for
   * its last lines, which a write already under way (or a retry after a full disk still 5 s
   * off) would otherwise leave behind. A failing file is tried once more, then not waited for.
   */
  written(): Promise<void>;
  /** pino's multistream ends its streams this way: what is queued is written once; the file stays open. */
  end(): void;
};

export type LogFileOptions = {
  /** At most this much waits in memory for the disk; past it new lines are dropped. */
  maxQueuedBytes?: number;
  /** After a failed write, the next try waits this long. */
  retryAfterMs?: number;
  /** Past this size the file is moved aside after the write that passed it (64 MiB by default). */
  maxFileBytes?: number;
  /** How many files moved aside are kept (`<file>.1` is the newest; 3 by default). */
  keptFiles?: number;
  /** Told once per outage that lines are being dropped (the logger sends it to stderr). */
  onTrouble?: (message: string) => void;
};

export function openLogFile(file: string, options: LogFileOptions = {}): LogFile {
  const maxQueuedBytes = options.maxQueuedBytes ?? 4 * 2 ** 20;
  const retryAfterMs = options.retryAfterMs ?? 5_000;
  const maxFileBytes = options.maxFileBytes ?? 64 * 2 ** 20;
  const keptFiles = Math.max(1, options.keptFiles ?? 3);
  // Opened here, synchronously: a process that exits right after start still has its log.
  let fd = fs.openSync(file, 'a', 0o600);
  let fileBytes = fs.fstatSync(fd).size;
  let queue: string[] = [];
  let queuedBytes = 0;
  let droppedLines = 0;
  let droppedSinceNoted = 0;
  let isWriting = false;
  let isFailing = false;
  let retryTimer: NodeJS.Timeout | undefined;

  const drop = (lines: number, reason: string) => {
    droppedLines += lines;
    droppedSinceNoted += lines;
    if (!isFailing)
      options.onTrouble?.(`SignDesk cannot write its log file (${reason}); log lines are dropped until it can.`);
    isFailing = true;
  };

  /**
   * After a write that took the file past its size: `.1` … moved up one (the last removed), the
   * file to `.1`, a new file opened. Synchronous, but once per file's worth of lines, and only
   * while no write is in flight. One that fails leaves the lines going to the same file, and is
   * tried again after another file's worth.
   */
  const rotateIfFull = () => {
    if (fileBytes < maxFileBytes) return;
    fileBytes = 0;
    try {
      fs.rmSync(`${file}.${keptFiles}`, { force: true });
      for (let n = keptFiles - 1; n >= 1; n -= 1) {
        if (fs.existsSync(`${file}.${n}`)) fs.renameSync(`${file}.${n}`, `${file}.${n + 1}`);
      }
      fs.renameSync(file, `${file}.1`);
      const next = fs.openSync(file, 'a', 0o600);
      fs.closeSync(fd);
      fd = next;
    } catch (error) {
      options.onTrouble?.(
        `SignDesk cannot move its full log file aside (${(error as NodeJS.ErrnoException).code ?? String(error)}); it grows on.`,
      );
    }
  };

  /** The queued lines, preceded by a note of what was lost before them. */
  const takeQueue = (): Buffer => {
    let text = queue.join('');
    if (droppedSinceNoted > 0) {
      // A line cut short by the failure ends here; then the note, as a log line of its own.
      const note = JSON.stringify({
        level: 40,
        time: new Date().toISOString(),
        dropped: droppedSinceNoted,
        msg: 'log lines were dropped: the log file could not be written',
      });
      text = `\n${note}\n${text}`;
    }
    queue = [];
    queuedBytes = 0;
    return Buffer.from(text, 'utf8');
  };

  let waiting: Array<() => void> = [];
  const settleWaiting = () => {
    if (isWriting && !retryTimer) return;
    for (const resolve of waiting) resolve();
    waiting = [];
  };

  const writeNext = () => {
    if (isWriting || retryTimer || queue.length === 0) return settleWaiting();
    isWriting = true;
    const notedNow = droppedSinceNoted;
    const lines = queue.length;
    const buffer = takeQueue();
    const writeFrom = (offset: number) => {
      fs.write(fd, buffer, offset, buffer.length - offset, null, (error, written) => {
        if (!error && offset + written < buffer.length) return writeFrom(offset + written);
        isWriting = false;
        if (error) {
          drop(lines, error.code ?? error.message);
          retryTimer = setTimeout(() => {
            retryTimer = undefined;
            writeNext();
          }, retryAfterMs);
          retryTimer.unref();
          return settleWaiting();
        }
        droppedSinceNoted -= notedNow;
        isFailing = false;
        fileBytes += buffer.length;
        rotateIfFull();
        writeNext();
      });
    };
    writeFrom(0);
  };

  return {
    write(line) {
      if (queuedBytes + line.length > maxQueuedBytes) {
        drop(1, 'too many lines waiting for the disk');
        return true;
      }
      queue.push(line);
      queuedBytes += line.length;
      // At once, not on a later turn: the host's process.exit right after the last line ("closed")
      // leaves a write already handed to the thread pool, not one still waiting for its turn.
      // Lines that come while a write is under way go together in the next.
      writeNext();
      return true;
    },
    flushSync() {
      if (isWriting || queue.length === 0) return;
      const lines = queue.length;
      const notedNow = droppedSinceNoted;
      try {
        const buffer = takeQueue();
        // A disk with room for part of it takes part: the rest is written on, or its error caught.
        for (let offset = 0; offset < buffer.length;) {
          const written = fs.writeSync(fd, buffer, offset);
          if (written === 0) throw Object.assign(new Error('nothing written'), { code: 'ENOSPC' });
          offset += written;
        }
        droppedSinceNoted -= notedNow;
        fileBytes += buffer.length;
        rotateIfFull();
      } catch (error) {
        drop(lines, (error as NodeJS.ErrnoException).code ?? String(error));
      }
    },
    dropped: () => droppedLines,
    written: async () => {
      if (!isWriting && queue.length === 0) return;
      // Waiting to try the full disk again: one try now (space may have come back), not 5 s on.
      if (retryTimer) {
        clearTimeout(retryTimer);
        retryTimer = undefined;
        writeNext();
        if (retryTimer || (!isWriting && queue.length === 0)) return;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    },
    end() {
      this.flushSync();
    },
  };
}
