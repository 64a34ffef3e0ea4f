import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadPdfJs } from '../server/pdf/load-pdfjs';
import { readTextTags } from '../server/pdf/read-text-tags';
import { report } from './lib';

/**
 * What reading text tags from their glyphs costs: the LibreOffice contract of the tests (one A4
 * page, 12 tags), read as the `find-tags` task does (text content, then the operator list of a
 * page with a tag), beside reading its text content alone, which was all the earlier
 * Helvetica-estimating reader did (the baseline). Only pages with `{{` pay the difference.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const bytes = new Uint8Array(fs.readFileSync(path.join(here, '../test/fixtures/word-processor/contract-serif.pdf')));
const ROUNDS = 20;

async function textContentOnly(): Promise<void> {
  const { pdfjs } = await loadPdfJs();
  const document = await pdfjs.getDocument({ data: bytes.slice(), isEvalSupported: false, disableFontFace: true })
    .promise;
  for (let number = 1; number <= document.numPages; number += 1)
    await (await document.getPage(number)).getTextContent();
  await document.destroy();
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  await run();
  const start = performance.now();
  for (let round = 0; round < ROUNDS; round += 1) await run();
  return (performance.now() - start) / ROUNDS;
}

const baseline = await timed(textContentOnly);
const glyphs = await timed(() => readTextTags(bytes, 100));
report('find-tags, one tagged LibreOffice page', Math.round(glyphs * 10) / 10, 'ms', Math.round(baseline * 10) / 10);
