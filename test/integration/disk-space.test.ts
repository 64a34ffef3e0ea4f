import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { expectProblem } from '../helpers/problems';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser } from '../helpers/users';

/** The data folder's disk as the admin sees it: free space, and a warning before it is full. */
describe('GET /api/settings/storage', () => {
  let t: TestServer | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("tells the admin the free space of the data folder's disk, and that it is low below LOW_DISK_MB", async () => {
    t = await startTestServer({ lowDiskBytes: 0 });
    const storage = await t.api('GET', '/api/settings/storage');
    expect(storage.status, storage.text).toBe(200);
    const disk = fs.statfsSync(t.dataDir);
    expect(storage.body).toMatchObject({
      data_folder: t.dataDir,
      total_bytes: disk.blocks * disk.bsize,
      low_below_bytes: 0,
      is_low: false,
    });
    // What the disk has free moves as other work writes; the same disk, within 1 GiB.
    expect(Math.abs(storage.body.free_bytes - disk.bavail * disk.bsize)).toBeLessThan(2 ** 30);
    expect(storage.body.free_bytes).toBeLessThanOrEqual(storage.body.total_bytes);
    await t.close();

    // A threshold above any disk's size: low.
    t = await startTestServer({ lowDiskBytes: Number.MAX_SAFE_INTEGER });
    expect((await t.api('GET', '/api/settings/storage')).body).toMatchObject({
      is_low: true,
      low_below_bytes: Number.MAX_SAFE_INTEGER,
    });
  });

  it('says in the log, for a server run headless, that the disk is almost full', async () => {
    t = await startTestServer({ lowDiskBytes: Number.MAX_SAFE_INTEGER, logLevel: 'info' });
    const logFile = path.join(t.dataDir, 'logs', 'signdesk.log');
    const warning = () =>
      fs
        .readFileSync(logFile, 'utf8')
        .split('\n')
        .find((text) => text.includes("the data folder's disk is almost full"));
    await expect.poll(warning, { timeout: 15_000, interval: 100 }).toBeDefined();
    const line = JSON.parse(warning() as string);
    expect(line).toMatchObject({
      level: 40,
      worker: 'disk-watch',
      dataDir: t.dataDir,
      lowBelowBytes: Number.MAX_SAFE_INTEGER,
    });
    expect(line.freeBytes).toBeGreaterThan(0);
  });

  it('is the admin’s alone', async () => {
    t = await startTestServer();
    const clerk = await makeUser(t, 'clerk');
    expectProblem(await clerk.api('GET', '/api/settings/storage'), 403, 'forbidden');
    expectProblem(await t.api('GET', '/api/settings/storage', { key: null }), 401, 'unauthorized');
  });
});
