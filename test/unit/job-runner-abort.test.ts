import { storeOf } from '../../server/db/stores';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../server/db/open-database';
import { createJobRepo } from '../../server/db/repos/jobs';
import { createRunner, type JobOutcome } from '../../server/jobs/runner';
import { makeTempDir } from '../helpers/server';

/** A queue whose work may take hours (scheduled backups) does not hold a shutdown: stop() aborts it. */
describe('a runner that aborts on stop', () => {
  let opened: OpenedDatabase | undefined;
  afterEach(() => opened?.close());

  it('aborts the running handler on stop, and its job stays queued for the next start', async () => {
    opened = openDatabase(path.join(makeTempDir(), 'q.sqlite'));
    const jobs = createJobRepo(storeOf(opened.db));
    await jobs.enqueue('backup', 1, 0, 0);
    let started: () => void = () => undefined;
    const isRunning = new Promise<void>((resolve) => (started = resolve));
    let reason: unknown;
    const runner = createRunner({
      queue: 'backup',
      db: opened.db,
      jobs,
      logger: pino({ level: 'silent' }),
      now: () => 0,
      concurrency: 1,
      leaseMs: 60_000,
      timeoutMs: 6 * 3_600_000,
      abortOnStop: true,
      handle: (_job, signal): Promise<JobOutcome> =>
        new Promise((resolve) => {
          started();
          // Hours of work, unless aborted.
          signal.addEventListener('abort', () => {
            reason = signal.reason;
            resolve({ kind: 'retry', at: 0, error: 'stopped' });
          });
        }),
    });
    runner.start();
    await isRunning;
    await runner.stop();
    expect(String(reason)).toContain('stopping');
    expect(await jobs.countPending('backup')).toBe(1);
  });
});
