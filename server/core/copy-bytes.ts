/**
 * Copies `source` into `target` from `offset`, as much of it as fits, and returns how many bytes
 * it copied: with memcpy, also where either side is shared memory (the upload memory,
 * core/shared-buffers.ts). There TypedArray's `set`, and Buffer's `copy` that uses it, copy
 * word by word, as JavaScript's memory model asks of shared memory: about three times slower
 * for a 2 MiB upload, on the request thread as it reads the body and in the PDF worker as it
 * writes it. Buffer's `fill` with bytes copies them natively. Nothing else writes a slot while
 * its holder fills it, so the plain copy is safe.
 */
export function copyBytes(target: Buffer, source: Uint8Array, offset: number): number {
  const count = Math.min(source.length, target.length - offset);
  if (count <= 0) return 0;
  target.fill(source, offset, offset + count);
  return count;
}
