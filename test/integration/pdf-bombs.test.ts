import { createHash } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentBomb, inflateBomb, pageTreeBomb } from '../helpers/hostile-pdfs';
import { expectProblem } from '../helpers/problems';
import { makeContract, signingClient } from '../helpers/signing';
import { startTestServer, type ApiResponse, type TestServer } from '../helpers/server';
import { rawSql } from '../../server/db/raw-sql';

/**
 * PDFs made to stall a reader: a page tree listing the same child twice at every level (a
 * billion pages from 4 KB) and an object stream that inflates to about 2 GB. They are refused
 * as invalid-pdf, saying why, and while one is being read the server keeps answering.
 */
describe('hostile PDFs', () => {
  let t: TestServer;
  let link: string;
  let treeBomb: Buffer;
  let zipBomb: Buffer;
  beforeAll(async () => {
    t = await startTestServer();
    treeBomb = pageTreeBomb(30);
    zipBomb = await inflateBomb(29);
    const contract = await makeContract(t, [{ name: 'Eva', email: 'eva@example.test' }]);
    await t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    link = contract.parties[0]!.contract_url;
  });
  afterAll(() => t.close());

  const upload = (bytes: Uint8Array) =>
    t.api('POST', '/api/contracts', { raw: { data: bytes, contentType: 'application/pdf' } });

  /** Resolves once the server hands a PDF task to its sandbox (observed, not changed). */
  const nextSandboxTask = () =>
    new Promise<void>((resolve) => {
      const sandbox = t.server.ctx.pdf;
      const run = sandbox.run.bind(sandbox);
      sandbox.run = ((task, input) => {
        sandbox.run = run;
        resolve();
        return run(task, input);
      }) as typeof sandbox.run;
    });

  /** The API, a signing page and the admin UI each answer while `pending()` still holds. */
  async function expectServerAnswers(pending: () => boolean) {
    const checks: Array<[string, () => Promise<number>]> = [
      ['API GET', async () => (await t.api('GET', '/api/contracts')).status],
      ['signing page', async () => (await fetch(link)).status],
      ['signing state', async () => (await signingClient(link).state()).status],
      ['admin UI', async () => (await fetch(`${t.url}/admin/`)).status],
    ];
    for (const [name, check] of checks) {
      expect(await check(), name).toBe(200);
      expect(pending(), `${name} answered while the hostile PDF was still being read`).toBe(true);
    }
  }

  it('refuses a page tree that lists the same child twice at every level, saying so', async () => {
    expect(treeBomb.length).toBeLessThan(4_096);
    const refused = await upload(treeBomb);
    expectProblem(refused, 400, 'invalid-pdf');
    expect(refused.body.detail).toMatch(/page tree/i);
  });

  it('refuses an object stream that inflates to gigabytes, saying so', async () => {
    expect(zipBomb.length).toBeGreaterThan(1_800_000);
    const refused = await upload(zipBomb);
    expectProblem(refused, 400, 'invalid-pdf');
    expect(refused.body.detail).toMatch(/unpack/i);
  });

  it('refuses page content that inflates to gigabytes at upload, before pdf.js ever draws it', async () => {
    const refused = await upload(await contentBomb(29));
    expectProblem(refused, 400, 'invalid-pdf');
    expect(refused.body.detail).toMatch(/unpack/i);
  });

  it('keeps answering the API, signing pages and the admin UI while bombs are being refused, its event loop never held up', async () => {
    // The test server runs in this process: its event loop is this one. A bomb read on the main
    // thread (not in the sandbox) would hold it for seconds; 1 s leaves room for a busy machine.
    const delay = monitorEventLoopDelay({ resolution: 20 });
    delay.enable();
    const handed = nextSandboxTask();
    const bombs = [zipBomb, treeBomb, zipBomb, zipBomb, treeBomb, zipBomb].map((bomb) => upload(bomb));
    let pending = bombs.length;
    for (const bomb of bombs) void bomb.finally(() => (pending -= 1));
    await handed;
    await expectServerAnswers(() => pending > 0);
    for (const refused of await Promise.all(bombs)) expectProblem(refused, 400, 'invalid-pdf');
    delay.disable();
    expect(delay.max / 1e6, 'longest event-loop delay (ms) while the bombs were read').toBeLessThan(1_000);
    const total = (await t.api('GET', '/api/contracts')).headers.get('pagination-items-total');
    expect(total).toBe('1');
  });

  it('fails to seal a contract whose stored PDF is hostile, without stalling the server, and changes nothing', async () => {
    const contract = await makeContract(t, [{ name: 'Olle', email: 'olle@example.test' }]);
    await t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    // As if the database had been tampered with: the contract's original is now a bomb, kept in the row.
    const hostile = await inflateBomb(8);
    await rawSql(t.server.ctx.db).run(
      'UPDATE stored_files SET data = ?, in_files = FALSE, sha256 = ?, size = ? WHERE id = (SELECT original_file_id FROM contracts WHERE id = ?)',
      hostile,
      createHash('sha256').update(hostile).digest('hex'),
      hostile.length,
      contract.id,
    );
    const olle = signingClient(contract.parties[0]!.contract_url);
    await olle.state();
    const handed = nextSandboxTask();
    let answer: Awaited<ReturnType<typeof olle.accept>> | undefined;
    const accepting = olle.accept({}, 'Olle').then((response) => (answer = response));
    await handed;
    await expectServerAnswers(() => answer === undefined);
    await accepting;
    expectProblem(answer as unknown as ApiResponse, 400, 'invalid-pdf');
    expect(answer?.body.detail).toMatch(/cannot be sealed/i);
    const after = await t.api('GET', contract.self);
    expect(after.body).toMatchObject({ is_signed: false, is_answered: false });
    expect((await t.api('GET', `${contract.self}/parties`)).body[0]).toMatchObject({ is_accept: false });
  });
});
