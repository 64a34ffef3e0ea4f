import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startCheckpointer, type Checkpointer } from '../../server/db/checkpointer';
import { openDatabase, type OpenedDatabase } from '../../server/db/open-database';
import { createFileRepo } from '../../server/db/repos/files';
import { storeOf } from '../../server/db/stores';
import { makeTempDir } from '../helpers/server';

type LogLine = { level: number; msg: string };

/** A real pino logger whose lines land in an array. */
function memoryLogger(): { logger: pino.Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  return { logger, lines };
}

describe('background WAL checkpoints', () => {
  let opened: OpenedDatabase | undefined;
  let checkpointer: Checkpointer | undefined;
  afterEach(async () => {
    await checkpointer?.stop();
    opened?.close();
    checkpointer = undefined;
    opened = undefined;
  });

  const open = () => {
    const file = path.join(makeTempDir(), 'c.sqlite');
    opened = openDatabase(file);
    return { file, sqlite: opened.sqlite, files: createFileRepo(storeOf(opened.db)) };
  };
  const blob = (size: number, seed: number) => Buffer.alloc(size, seed % 251);
  const autoPages = (sqlite: OpenedDatabase['sqlite']) => sqlite.pragma('wal_autocheckpoint', { simple: true });

  it('copy committed pages into the database file while the request connection only appends', async () => {
    const { file, sqlite, files } = open();
    const { logger } = memoryLogger();
    checkpointer = startCheckpointer({ file, sqlite, logger, intervalMs: 20, restartFrames: 1e9 });
    await checkpointer.ready;
    expect(autoPages(sqlite)).toBe(0);
    const before = fs.statSync(file).size;
    // 256 pages: below the automatic threshold, so only the worker can have copied them.
    await files.putFile(blob(1024 * 1024, 1), 'application/octet-stream');
    await expect.poll(() => fs.statSync(file).size - before, { timeout: 5_000 }).toBeGreaterThan(1024 * 1024);
    await checkpointer.stop();
    expect(autoPages(sqlite)).toBe(1_000);
  });

  it('restart the WAL through one checkpoint here when writes never let the worker catch up', async () => {
    const { file, sqlite, files } = open();
    const { logger, lines } = memoryLogger();
    checkpointer = startCheckpointer({ file, sqlite, logger, intervalMs: 5, restartFrames: 256 });
    await checkpointer.ready;
    let largest = 0;
    // 40 MiB in 160 commits, yielding to the event loop (as requests do) but never pausing.
    for (let index = 0; index < 160; index += 1) {
      await files.putFile(blob(256 * 1024, index), 'application/octet-stream');
      largest = Math.max(largest, fs.statSync(`${file}-wal`).size);
      await yieldToLoop();
    }
    expect(lines.some((line) => line.msg.includes('to restart it'))).toBe(true);
    expect(largest).toBeLessThan(20 * 1024 * 1024);
  });

  it('fall back to automatic checkpoints when the worker cannot run', async () => {
    const { sqlite } = open();
    const { logger, lines } = memoryLogger();
    checkpointer = startCheckpointer({ file: path.join(makeTempDir(), 'missing', 'none.sqlite'), sqlite, logger });
    await checkpointer.ready;
    expect(lines.some((line) => line.level === 40 && line.msg.includes('back on the request connection'))).toBe(true);
    expect(autoPages(sqlite)).toBe(1_000);
  });

  it('keep a process alive until they have stopped, so that shutdown gets to close the database', () => {
    const file = path.join(makeTempDir(), 'alive.sqlite');
    openDatabase(file).close();
    const script = `
      import { openDatabase } from ${JSON.stringify(path.resolve('server/db/open-database.ts'))};
      import { startCheckpointer } from ${JSON.stringify(path.resolve('server/db/checkpointer.ts'))};
      import pino from 'pino';
      const opened = openDatabase(${JSON.stringify(file)});
      const checkpointer = startCheckpointer({ file: ${JSON.stringify(file)}, sqlite: opened.sqlite, logger: pino({ level: 'silent' }) });
      await checkpointer.ready;
      await checkpointer.stop();
      opened.close();
      console.log('closed');`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.stdout.trim()).toBe('closed');
    expect(run.status).toBe(0);
  });
});
