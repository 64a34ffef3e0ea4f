import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLogFile } from '../../server/logging/log-file';
import { createLogger } from '../../server/logging/logger';
import { makeTempDir } from '../helpers/server';

/** The log on a real file system that fills up (a 1 MiB tmpfs, mounted as root as CI runs). */
describe('the log file on a full disk', () => {
  let mountPoint: string;
  beforeAll(() => {
    mountPoint = makeTempDir('signdesk-log-');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint]);
  });
  afterAll(() => {
    // Lazily: the logger keeps its file open until this process ends.
    execFileSync('umount', ['-l', mountPoint]);
    fs.rmSync(mountPoint, { recursive: true, force: true });
  });

  it('drops lines instead of throwing or hanging, and says so once space returns', async () => {
    const logs = path.join(mountPoint, 'logs');
    const logger = createLogger(logs, 'info');
    logger.info('before the disk filled');
    const file = path.join(logs, 'signdesk.log');
    await expect
      .poll(() => fs.readFileSync(file, 'utf8'), { timeout: 10_000, interval: 20 })
      .toMatch(/before the disk filled/);

    const filler = path.join(mountPoint, 'filler');
    const fd = fs.openSync(filler, 'w');
    for (const size of [1 << 16, 1 << 12, 1]) {
      for (;;) {
        try {
          fs.writeSync(fd, Buffer.alloc(size, 0x5a));
        } catch {
          break;
        }
      }
    }
    fs.closeSync(fd);

    // A flood of lines while nothing can be written: no exception, no blocked event loop.
    const stderrWrites: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => (stderrWrites.push(String(chunk)), true)) as typeof process.stderr.write;
    try {
      for (let line = 0; line < 5_000; line += 1)
        logger.info({ line, padding: 'x'.repeat(200) }, 'while the disk is full');
      // What the host does on its way out: a synchronous flush, which must give up rather than retry.
      (logger as unknown as Record<symbol, { flushSync(): void }>)[pino.symbols.streamSym]!.flushSync();
      await expect
        .poll(() => stderrWrites.join(''), { timeout: 10_000, interval: 20 })
        .toMatch(/cannot write its log file \(ENOSPC\)/);
    } finally {
      process.stderr.write = write;
    }

    fs.rmSync(filler);
    logger.info('after space returned');
    await expect
      .poll(() => fs.readFileSync(file, 'utf8'), { timeout: 15_000, interval: 50 })
      .toMatch(/after space returned/);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toMatch(/"dropped":\d+,"msg":"log lines were dropped: the log file could not be written"/);
    // Every whole line is JSON: a line cut short by the full disk is ended before the note.
    for (const line of text.split('\n').filter((entry) => entry.startsWith('{') && entry.endsWith('}')))
      expect(() => JSON.parse(line)).not.toThrow();
  });
});

/** Every request has its line now: the log must not grow without end (nor fill the disk from the internet). */
describe('the log file as it grows', () => {
  it('moves a full file aside (signdesk.log.1, .2) and keeps only so many, in whole lines', async () => {
    const dir = makeTempDir('signdesk-log-rotate-');
    const file = path.join(dir, 'signdesk.log');
    const log = openLogFile(file, { maxFileBytes: 4_000, keptFiles: 2 });
    const line = (n: number) => `${JSON.stringify({ n, padding: 'x'.repeat(1_000) })}\n`;
    const numbers = () =>
      [`${file}.2`, `${file}.1`, file]
        .filter((name) => fs.existsSync(name))
        .flatMap((name) => fs.readFileSync(name, 'utf8').split('\n').filter(Boolean))
        .map((text) => (JSON.parse(text) as { n: number }).n);
    for (let n = 0; n < 30; n += 1) {
      log.write(line(n));
      await expect.poll(() => numbers().at(-1), { interval: 5 }).toBe(n);
    }
    expect(fs.readdirSync(dir).sort()).toEqual(['signdesk.log', 'signdesk.log.1', 'signdesk.log.2']);
    // The newest kept, in order, the oldest gone with the file that held them.
    const kept = numbers();
    expect(kept[0]).toBeGreaterThan(0);
    expect(kept).toEqual(kept.map((_, index) => kept[0]! + index));
    for (const name of fs.readdirSync(dir)) {
      expect(fs.statSync(path.join(dir, name)).size, name).toBeLessThan(4_000 + 1_100);
      expect(fs.statSync(path.join(dir, name)).mode & 0o777, name).toBe(0o600);
    }
    // A new process appends to what the last one left and counts it: one more line moves it aside.
    const before = fs.statSync(file).size;
    const again = openLogFile(file, { maxFileBytes: before + 1, keptFiles: 2 });
    again.write(line(30));
    // Moved aside in the write's callback, just after the line reached the file.
    await expect.poll(() => fs.readFileSync(`${file}.1`, 'utf8').includes('"n":30,'), { interval: 5 }).toBe(true);
    expect(numbers().at(-1)).toBe(30);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
