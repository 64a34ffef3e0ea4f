import zlib from 'node:zlib';
import { makePdf } from '../test/helpers/pdfs';
import { createPdfSandbox, DEFAULT_SANDBOX_OPTIONS } from '../server/pdf/sandbox/pdf-sandbox';
import { report } from './lib';

/**
 * What a party's flood of marks costs the office's PDF work (review 2026-12-07: eight
 * 4-megapixel marks on one link made an admin's upload take 1.5-3.8 s instead of 0.02 s). The
 * office's task is an upload's read (`inspect` of a 3-page PDF) in the server's own sandbox
 * (2 workers); the flood keeps eight 4000x1000 marks (the size cap) waiting at all times. Three
 * figures from one run: quiet (the baseline), the flood as parties' work (its own budget), and
 * the same flood in the office's line, as every task was before the budget.
 */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

function transparentPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(height * (1 + width * 4)), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const ROUNDS = 12;
const FLOOD = 8;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const sandbox = createPdfSandbox(DEFAULT_SANDBOX_OPTIONS);
const upload = await makePdf({ pages: 3 });
const mark = transparentPng(4000, 1000);

async function officeUploads(): Promise<number> {
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    await sandbox.run('inspect', { bytes: upload, maxPages: 10 });
    times.push(performance.now() - started);
  }
  return median(times);
}

/** Keeps `FLOOD` marks from `source` in the sandbox until `stop` resolves. */
async function flood(source: string, during: () => Promise<number>): Promise<number> {
  let isOn = true;
  const one = async (): Promise<void> => {
    while (isOn) await sandbox.run('prepare-mark', { bytes: mark }, { source }).catch(() => undefined);
  };
  const floods = Array.from({ length: FLOOD }, one);
  // Let the marks take the workers first, as the attacker's did.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const result = await during();
  isOn = false;
  await Promise.all(floods);
  return result;
}

// Both workers started and warm.
await Promise.all([officeUploads(), officeUploads()]);
const quiet = await officeUploads();
const budgeted = await flood('party:1', officeUploads);
// `pages:` is a line of the office's budget: the marks there are what every mark was before.
const unbudgeted = await flood('pages:1', officeUploads);
report('office upload read (median) during 8 parallel 4-MP marks, parties in their own budget', budgeted, 'ms', quiet);
report('office upload read (median) during the same marks in the office budget (before)', unbudgeted, 'ms', quiet);
await sandbox.close();
