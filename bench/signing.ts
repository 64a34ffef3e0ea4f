/**
 * Time to build the sealed signed PDF of a 2 MiB, 50-page contract with three parties and six
 * fields, beside a bare pdf-lib load + save of the same file in the same run.
 * Run alone: `npx tsx bench/signing.ts`.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ParseSpeeds, PDFDocument } from 'pdf-lib';
import { loadSigningIdentity } from '../server/crypto/signing-identity';
import { createFileKeyStore } from '../server/crypto/file-key-store';
import { buildSignedPdf, type SignedPdfInput } from '../server/pdf/build-signed-pdf';
import { makeContractPdf } from '../test/helpers/make-contract-pdf';

const RUNS = Number(process.env.BENCH_RUNS ?? 31);
const WARMUP = 15;

/**
 * Median times of several tasks run in turn, round after round, so that the drift of a shared
 * machine falls on all of them alike; the first rounds warm the JIT up and are not counted.
 */
async function medians(tasks: Array<() => Promise<unknown>>): Promise<number[]> {
  const times = tasks.map((): number[] => []);
  for (let round = 0; round < WARMUP + RUNS; round += 1) {
    for (const [index, task] of tasks.entries()) {
      const start = performance.now();
      await task();
      if (round >= WARMUP) times[index]!.push(performance.now() - start);
    }
  }
  return times.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]!);
}

function inputFor(original: Uint8Array): SignedPdfInput {
  const now = Date.now();
  const party = (name: string, contact: string) => ({
    name,
    contact,
    signType: 'DEFAULT',
    ipAddress: '192.0.2.44',
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
    authentication: 'EMAIL_CODE',
    sentTime: now - 86_400_000,
    openedTime: now - 3_600_000,
    signedTime: now - 60_000,
  });
  return {
    original,
    fields: [
      { page: 50, x: 60, y: 700, width: 200, height: 56, type: 'SIGNATURE', value: '', signerName: 'Åsa Öberg' },
      { page: 50, x: 320, y: 700, width: 200, height: 56, type: 'SIGNATURE', value: '', signerName: 'Jan Kowalski' },
      { page: 50, x: 60, y: 770, width: 200, height: 20, type: 'NAME', value: 'Åsa Öberg', signerName: 'Åsa Öberg' },
      { page: 50, x: 320, y: 770, width: 120, height: 20, type: 'DATE', value: '', signerName: 'Jan Kowalski' },
      { page: 1, x: 500, y: 780, width: 40, height: 24, type: 'INITIALS', value: '', signerName: 'Léa Dubois' },
      { page: 12, x: 60, y: 760, width: 16, height: 16, type: 'CHECKBOX', value: true, signerName: 'Léa Dubois' },
    ],
    audit: {
      documentName: 'Framework agreement.pdf',
      documentSha256: createHash('sha256').update(original).digest('hex'),
      contractId: 1,
      completedTime: now,
      timeZone: 'Europe/Stockholm',
      parties: [
        party('Åsa Öberg', 'asa@example.se'),
        party('Jan Kowalski', 'jan@example.pl'),
        party('Léa Dubois', '+33612345678'),
      ],
    },
  };
}

const original = await makeContractPdf({ pages: 50, targetBytes: 2 * 1024 * 1024 });
const identity = await loadSigningIdentity(
  createFileKeyStore(fs.mkdtempSync(path.join(os.tmpdir(), 'signdesk-bench-keys-'))),
);
const input = inputFor(original);

const [baseline = NaN, eagerBaseline = NaN, build = NaN] = await medians([
  async () => (await PDFDocument.load(original)).save(),
  // The same without pdf-lib's setTimeout yields (every 100 objects), as buildSignedPdf loads: pure work.
  async () =>
    (await PDFDocument.load(original, { parseSpeed: ParseSpeeds.Fastest })).save({ objectsPerTick: Infinity }),
  () => buildSignedPdf(input, identity),
]);
const mib = (original.length / 1024 / 1024).toFixed(2);
const line = (name: string, value: number, base: number) =>
  console.log(`${name}: ${value.toFixed(1)} ms (baseline ${base.toFixed(1)}, ratio ${(value / base).toFixed(2)})`);
line(`signed pdf build, ${mib} MiB 50-page contract, 3 parties, 6 fields, vs pdf-lib load+save`, build, baseline);
line(
  `signed pdf build, ${mib} MiB 50-page contract, 3 parties, 6 fields, vs pdf-lib load+save without setTimeout yields`,
  build,
  eagerBaseline,
);
