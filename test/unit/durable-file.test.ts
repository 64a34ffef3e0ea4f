import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeNewFileDurably } from '../../server/core/durable-file';
import { makeTempDir } from '../helpers/server';

const patterned = (size: number, seed: number) =>
  Buffer.from(Array.from({ length: size }, (_, i) => (i * seed + 3) & 255));

describe('writing a new file durably', () => {
  it('writes every size whole, to the byte, private to the office, whatever was written before', () => {
    const dir = makeTempDir();
    // Larger before smaller too: the thread's aligned buffer is reused, and nothing of an earlier file may show.
    const sizes = [2 * 1024 * 1024 + 3, 0, 1, 511, 4095, 4096, 4097, 70_000, 1_000_003, 5];
    for (const [index, size] of sizes.entries()) {
      const bytes = patterned(size, index + 5);
      const file = path.join(dir, `file-${index}`);
      writeNewFileDurably(file, bytes);
      expect(fs.readFileSync(file).equals(bytes), `${size} bytes`).toBe(true);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    }
  });

  it('never writes over a file that is there', () => {
    const file = path.join(makeTempDir(), 'taken');
    fs.writeFileSync(file, 'kept');
    expect(() => writeNewFileDurably(file, Buffer.from('new bytes'))).toThrow(/EEXIST/);
    expect(fs.readFileSync(file, 'utf8')).toBe('kept');
  });
});
