import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** poppler-utils and qpdf, run on files: what a person checking a signed PDF would use. */
export function run(command: string, args: string[]): { status: number; stdout: string; stderr: string } {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

export const qpdfCheck = (file: string) => run('qpdf', ['--check', file]);
export const pdfsig = (file: string) => run('pdfsig', [file]).stdout;
export const pdftotext = (file: string, first: number, last = first) =>
  run('pdftotext', ['-layout', '-f', String(first), '-l', String(last), file, '-']).stdout;

export function pageCountOf(file: string): number {
  const match = /^Pages:\s+(\d+)/m.exec(run('pdfinfo', [file]).stdout);
  if (!match) throw new Error(`pdfinfo could not read ${file}`);
  return Number(match[1]);
}

export type GrayImage = { width: number; height: number; pixels: Uint8Array };

/** One page rendered at 72 dpi (1 pixel = 1 point; or `dpi`) in gray, as viewers display it: its CropBox, rotated. */
export function renderGray(file: string, page: number, dir: string, dpi = 72): GrayImage {
  const prefix = path.join(dir, `gray-${path.basename(file, '.pdf')}-${page}-${dpi}`);
  const result = run('pdftoppm', [
    '-r',
    String(dpi),
    '-cropbox',
    '-gray',
    '-singlefile',
    '-f',
    String(page),
    '-l',
    String(page),
    file,
    prefix,
  ]);
  if (result.status !== 0) throw new Error(result.stderr);
  const bytes = fs.readFileSync(`${prefix}.pgm`);
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(bytes.subarray(0, 40).toString('latin1'));
  if (!header) throw new Error('not a PGM');
  const width = Number(header[1]);
  const height = Number(header[2]);
  return { width, height, pixels: bytes.subarray(header[0].length, header[0].length + width * height) };
}

/** A PNG of one page for people to look at, kept under test-results/. */
export function screenshot(file: string, page: number, outFile: string): void {
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  run('pdftoppm', [
    '-r',
    '110',
    '-png',
    '-singlefile',
    '-f',
    String(page),
    '-l',
    String(page),
    file,
    outFile.replace(/\.png$/, ''),
  ]);
}

type Box = { x: number; y: number; width: number; height: number };

/**
 * How many pixels changed between two renders inside a box and outside it (the box grown by
 * `margin` points): the mark must be drawn where the annotation says and nowhere else.
 */
export function changedPixels(
  before: GrayImage,
  after: GrayImage,
  box: Box,
  margin = 3,
): { inside: number; outside: number } {
  let inside = 0;
  let outside = 0;
  for (let y = 0; y < after.height; y += 1) {
    for (let x = 0; x < after.width; x += 1) {
      const index = y * after.width + x;
      if (Math.abs(before.pixels[index]! - after.pixels[index]!) < 40) continue;
      const isInside = x >= box.x && x < box.x + box.width && y >= box.y && y < box.y + box.height;
      const isNear =
        x >= box.x - margin && x < box.x + box.width + margin && y >= box.y - margin && y < box.y + box.height + margin;
      if (isInside) inside += 1;
      else if (!isNear) outside += 1;
    }
  }
  return { inside, outside };
}

export type WordBox = { word: string; page: number; x: number; y: number; width: number; height: number };

/** Every word of a PDF with its box (points, top-left of the page as displayed), as poppler's pdftotext -bbox reads them. */
export function wordBoxes(file: string): WordBox[] {
  const html = run('pdftotext', ['-bbox', file, '-']).stdout;
  const words: WordBox[] = [];
  let page = 0;
  for (const line of html.split('\n')) {
    if (line.includes('<page ')) page += 1;
    const match = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/.exec(line);
    if (!match) continue;
    const [x0, y0, x1, y1] = [match[1], match[2], match[3], match[4]].map(Number) as [number, number, number, number];
    const word = match[5]!
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"');
    words.push({ word, page, x: x0, y: y0, width: x1 - x0, height: y1 - y0 });
  }
  return words;
}
