import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../server/db/open-database';
import type { SqliteDatabase } from '../../server/db/database';
import { storeOf } from '../../server/db/stores';
import { createJobRepo } from '../../server/db/repos/jobs';
import { createRunner, type JobOutcome } from '../../server/jobs/runner';
import { makeTempDir } from '../helpers/server';

describe('the durable job queue', () => {
  let opened: OpenedDatabase | undefined;
  let db: SqliteDatabase;
  afterEach(() => opened?.close());

  const open = () => {
    opened = openDatabase(path.join(makeTempDir(), 'q.sqlite'));
    db = opened.db;
    return createJobRepo(storeOf(db));
  };

  it('hands a due job to one claimer only', async () => {
    const jobs = open();
    await jobs.enqueue('mail', 1, 1_000, 0);
    expect(await jobs.claim('mail', 10, 999, 5_000)).toHaveLength(0);
    const [first] = await jobs.claim('mail', 10, 1_000, 5_000);
    expect(first?.refId).toBe(1);
    expect(await jobs.claim('mail', 10, 1_001, 5_000)).toHaveLength(0);
  });

  it('gives an expired lease to the next claimer, and the old claim can no longer finish it', async () => {
    const jobs = open();
    await jobs.enqueue('mail', 7, 0, 0);
    const [stale] = await jobs.claim('mail', 1, 0, 100);
    const [fresh] = await jobs.claim('mail', 1, 101, 100);
    expect(fresh?.id).toBe(stale?.id);
    expect(fresh?.attempts).toBe(2);
    expect(await jobs.finish(stale!)).toBe(false);
    expect(await jobs.finish(fresh!)).toBe(true);
    expect(await jobs.countPending('mail')).toBe(0);
  });

  it('brings a queued job forward to run by a time, and queues one beside a running job or none', async () => {
    const jobs = open();
    await jobs.runBy('anchor', 1, 5_000, 0);
    expect(await jobs.plannedAt('anchor', 1)).toBe(5_000);
    // Planned later: brought forward. Planned sooner: left as it is.
    await jobs.runBy('anchor', 1, 3_000, 10);
    expect(await jobs.plannedAt('anchor', 1)).toBe(3_000);
    await jobs.runBy('anchor', 1, 4_000, 20);
    expect(await jobs.plannedAt('anchor', 1)).toBe(3_000);
    expect(await jobs.countPending('anchor')).toBe(1);
    // While the one job runs, asking again queues a second, which waits its turn.
    const [running] = await jobs.claim('anchor', 1, 3_000, 60_000);
    expect(running).toBeDefined();
    expect(await jobs.plannedAt('anchor', 1)).toBeUndefined();
    await jobs.runBy('anchor', 1, 3_500, 3_100);
    expect(await jobs.plannedAt('anchor', 1)).toBe(3_500);
    expect(await jobs.countPending('anchor')).toBe(2);
  });

  it('runs handlers with a concurrency limit, retries and finishes', async () => {
    const jobs = open();
    for (let ref = 1; ref <= 20; ref += 1) await jobs.enqueue('work', ref, 0, 0);
    let clock = 0;
    let peak = 0;
    let active = 0;
    const seen = new Map<number, number>();
    const runner = createRunner({
      queue: 'work',
      db,
      jobs,
      logger: pino({ level: 'silent' }),
      now: () => clock,
      concurrency: 4,
      leaseMs: 60_000,
      timeoutMs: 1_000,
      handle: async (job): Promise<JobOutcome> => {
        active += 1;
        peak = Math.max(peak, active);
        await new Promise((resolve) => setTimeout(resolve, 2));
        active -= 1;
        seen.set(job.refId, (seen.get(job.refId) ?? 0) + 1);
        return job.refId % 5 === 0 && job.attempts === 1
          ? { kind: 'retry', at: clock, error: 'busy' }
          : { kind: 'done' };
      },
    });
    await runner.runUntilEmpty();
    clock = 1;
    await runner.runUntilEmpty();
    expect(peak).toBeLessThanOrEqual(4);
    expect(seen.size).toBe(20);
    expect(seen.get(5)).toBe(2);
    expect(seen.get(4)).toBe(1);
    expect(await jobs.countPending('work')).toBe(0);
  });

  it('aborts a handler past its timeout and retries the job later', async () => {
    const jobs = open();
    await jobs.enqueue('slow', 1, 0, 0);
    const runner = createRunner({
      queue: 'slow',
      db,
      jobs,
      logger: pino({ level: 'silent' }),
      now: () => 0,
      concurrency: 1,
      leaseMs: 60_000,
      timeoutMs: 20,
      retryDelayOnCrashMs: 500,
      handle: (_job, signal) =>
        new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    });
    await runner.runUntilEmpty();
    expect(await jobs.countPending('slow')).toBe(1);
    expect(await jobs.nextDueAt('slow')).toBe(500);
  });

  it('started, picks up work when woken', async () => {
    const jobs = open();
    const done: number[] = [];
    const runner = createRunner({
      queue: 'live',
      db,
      jobs,
      logger: pino({ level: 'silent' }),
      now: () => Date.now(),
      concurrency: 2,
      leaseMs: 60_000,
      timeoutMs: 1_000,
      pollMs: 60_000,
      handle: async (job) => {
        done.push(job.refId);
        return { kind: 'done' };
      },
    });
    runner.start();
    await jobs.enqueue('live', 42, Date.now(), Date.now());
    runner.wake();
    await expect.poll(() => done, { timeout: 2_000 }).toEqual([42]);
    await runner.stop();
  });

  it('renews the lease while a handler runs, so no one else takes the job meanwhile', async () => {
    const jobs = open();
    await jobs.enqueue('long', 1, 0, 0);
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let isRunning = false;
    const runner = createRunner({
      queue: 'long',
      db,
      jobs,
      logger: pino({ level: 'silent' }),
      now: () => Date.now(),
      concurrency: 1,
      // Long enough that a busy machine's pause (other test files run beside this one) stays inside it.
      leaseMs: 600,
      timeoutMs: 10_000,
      handle: async () => {
        isRunning = true;
        await released;
        return { kind: 'done' };
      },
    });
    const done = runner.runUntilEmpty();
    await expect.poll(() => isRunning).toBe(true);
    // Five leases long, another process keeps trying to claim the job: it never gets it.
    const deadline = Date.now() + 3_000;
    while (Date.now() < deadline) {
      expect(await jobs.claim('long', 1, Date.now(), 600)).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    release();
    await done;
    expect(await jobs.countPending('long')).toBe(0);
  });

  it('stops a handler whose job another claimer took over, and leaves the job to it', async () => {
    const jobs = open();
    await jobs.enqueue('stolen', 1, 0, 0);
    let clock = 0;
    let reason: unknown;
    const runner = createRunner({
      queue: 'stolen',
      db,
      jobs,
      logger: pino({ level: 'silent' }),
      now: () => clock,
      concurrency: 1,
      leaseMs: 30,
      timeoutMs: 10_000,
      retryDelayOnCrashMs: 0,
      handle: (_job, signal) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => {
            reason = signal.reason;
            reject(signal.reason);
          }),
        ),
    });
    const done = runner.runUntilEmpty();
    // This process stalled past its lease (the clock jumps) and another one claimed the job.
    clock = 1_000;
    const [thief] = await jobs.claim('stolen', 1, clock, 60_000);
    expect(thief).toBeDefined();
    await expect.poll(() => String(reason)).toMatch(/lease lost/);
    await done;
    // The loser's retry did not touch the job: the new claimer finishes it.
    expect(await jobs.finish(thief!)).toBe(true);
  });

  it('keeps running its own job when it claims it again after a stall, without a second run', async () => {
    const jobs = open();
    await jobs.enqueue('stall', 1, 0, 0);
    let clock = 0;
    let runs = 0;
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const runner = createRunner({
      queue: 'stall',
      db,
      jobs,
      logger: pino({ level: 'silent' }),
      now: () => clock,
      concurrency: 2,
      leaseMs: 60_000,
      timeoutMs: 10_000,
      pollMs: 60_000,
      handle: async () => {
        runs += 1;
        await released;
        return { kind: 'done' };
      },
    });
    runner.start();
    await expect.poll(() => runs).toBe(1);
    clock = 120_000; // past the lease, as if no renewal could run
    runner.wake();
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await expect.poll(async () => jobs.countPending('stall')).toBe(0);
    expect(runs).toBe(1);
    await runner.stop();
  });

  it('stopped, claims nothing more (not even a wake-up queued before stop) and returns once the work in flight is done', async () => {
    const jobs = open();
    await jobs.enqueue('drain', 1, Date.now(), Date.now());
    const started: number[] = [];
    const finished: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const runner = createRunner({
      queue: 'drain',
      db,
      jobs,
      logger: pino({ level: 'silent' }),
      now: () => Date.now(),
      concurrency: 2,
      leaseMs: 60_000,
      timeoutMs: 10_000,
      pollMs: 60_000,
      handle: async (job) => {
        started.push(job.refId);
        await gate;
        finished.push(job.refId);
        return { kind: 'done' };
      },
    });
    runner.start();
    await expect.poll(() => started).toEqual([1]);
    for (const ref of [2, 3]) await jobs.enqueue('drain', ref, Date.now(), Date.now());
    // The wake-up is queued before stop() and runs after it (before the release queued next):
    // it must not claim job 2 or 3.
    runner.wake();
    setImmediate(release);
    await runner.stop();
    expect(finished).toEqual([1]);
    expect(started).toEqual([1]);
    expect(await jobs.countPending('drain')).toBe(2);
    expect((await jobs.claim('drain', 10, Date.now(), 1_000)).map((job) => job.refId).sort()).toEqual([2, 3]);
  });

  it('loads each claimed batch once and settles the jobs finished in one turn in one transaction', async () => {
    const jobs = open();
    for (let ref = 1; ref <= 4; ref += 1) await jobs.enqueue('batch', ref, 0, 0);
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const loads: number[][] = [];
    const settles: { refs: number[]; inputs: string[]; isInTransaction: boolean }[] = [];
    let started = 0;
    const runner = createRunner<string, string>({
      queue: 'batch',
      db,
      jobs,
      logger: pino({ level: 'silent' }),
      now: () => 0,
      concurrency: 4,
      leaseMs: 60_000,
      timeoutMs: 10_000,
      load: async (claimed) => {
        loads.push(claimed.map((job) => job.refId).sort());
        return new Map(claimed.map((job) => [job.id, `row ${job.refId}`]));
      },
      handle: async (_job, input) => {
        started += 1;
        await released;
        return input ?? 'nothing';
      },
      settle: async (finished, finalize) => {
        settles.push({
          refs: finished.map(({ job }) => job.refId).sort(),
          inputs: finished.map(({ result }) => result).sort(),
          isInTransaction: db.isInTransaction(),
        });
        for (const { job } of finished) await finalize(job, { kind: 'done' });
      },
    });
    const done = runner.runUntilEmpty();
    await expect.poll(() => started).toBe(4);
    release();
    await done;
    expect(loads).toEqual([[1, 2, 3, 4]]);
    expect(settles).toEqual([
      { refs: [1, 2, 3, 4], inputs: ['row 1', 'row 2', 'row 3', 'row 4'], isInTransaction: true },
    ]);
    expect(await jobs.countPending('batch')).toBe(0);
  });

  it('tries a failed settling again with the same results, and after three failures lets the jobs run again', async () => {
    const jobs = open();
    for (const ref of [1, 2]) await jobs.enqueue('flaky', ref, 0, 0);
    let clock = 0;
    let failuresLeft = 1;
    const runs = new Map<number, number>();
    const settled: number[][] = [];
    const runner = createRunner<never, number>({
      queue: 'flaky',
      db,
      jobs,
      logger: pino({ level: 'silent' }),
      now: () => clock,
      concurrency: 2,
      leaseMs: 60_000,
      timeoutMs: 10_000,
      load: async () => new Map<number, never>(),
      handle: async (job) => {
        runs.set(job.refId, (runs.get(job.refId) ?? 0) + 1);
        return job.refId;
      },
      settle: async (finished, finalize) => {
        settled.push(finished.map(({ result }) => result).sort());
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          throw new Error('database is locked');
        }
        for (const { job } of finished) await finalize(job, { kind: 'done' });
      },
    });
    await runner.runUntilEmpty();
    expect(settled).toEqual([
      [1, 2],
      [1, 2],
    ]);
    expect(await jobs.countPending('flaky')).toBe(0);
    expect([...runs.values()]).toEqual([1, 1]);

    // Every try fails: the results are dropped, and the jobs run again once their leases expire.
    for (const ref of [3, 4]) await jobs.enqueue('flaky', ref, 0, 0);
    failuresLeft = 3;
    settled.length = 0;
    await runner.runUntilEmpty();
    expect(settled).toHaveLength(3);
    expect(await jobs.countPending('flaky')).toBe(2);
    clock = 60_001;
    await runner.runUntilEmpty();
    expect(runs.get(3)).toBe(2);
    expect(runs.get(4)).toBe(2);
    expect(await jobs.countPending('flaky')).toBe(0);
  });
});
