import fs from 'node:fs';

/**
 * The log file as a pino destination that can never crash or hang the process. Lines are
 * appended in order by one write at a time; when the disk is full (or the file cannot be
 * written for any other reason) lines are dropped, not queued without end and not retried in
 * a loop: the file is tried again a few seconds later, and the first line that lands says how
 * many were lost. pino's own file destination turns such an error into an uncaught exception
 * whose exit hook retries the write for ever.
 */
export type LogFile = {
  write(line: string): boolean;
  /** Writes what is queued now, once; gives up (dropping it) on any error. Never waits or retries. */
  flushSync(): void;
  /** Lines lost so far to write errors or a full queue. */
  dropped(): number;
  /** pino's multistream ends its streams this way: what is queued is written once; the file stays open. */
  end(): void;
};

export type LogFileOptions = {
  /** At most this much waits in memory for the disk; past it new lines are dropped. */
  maxQueuedBytes?: number;
  /** After a failed write, the next try waits this long. */
  retryAfterMs?: number;
  /** Told once per outage that lines are being dropped (the logger sends it to stderr). */
  onTrouble?: (message: string) => void;
};

export function openLogFile(file: string, options: LogFileOptions = {}): LogFile {
  const maxQueuedBytes = options.maxQueuedBytes ?? 4 * 2 ** 20;
  const retryAfterMs = options.retryAfterMs ?? 5_000;
  // Opened here, synchronously: a process that exits right after start still has its log.
  const fd = fs.openSync(file, 'a', 0o600);
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

  const writeNext = () => {
    if (isWriting || retryTimer || queue.length === 0) return;
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
          return;
        }
        droppedSinceNoted -= notedNow;
        isFailing = false;
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
      writeNext();
      return true;
    },
    flushSync() {
      if (isWriting || queue.length === 0) return;
      const lines = queue.length;
      const notedNow = droppedSinceNoted;
      try {
        fs.writeSync(fd, takeQueue());
        droppedSinceNoted -= notedNow;
      } catch (error) {
        drop(lines, (error as NodeJS.ErrnoException).code ?? String(error));
      }
    },
    dropped: () => droppedLines,
    end() {
      this.flushSync();
    },
  };
}
