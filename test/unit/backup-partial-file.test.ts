import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPartialFile } from '../../server/backup/backup-folder';
import { makeTempDir } from '../helpers/server';

/**
 * A backup folder may be shared: someone who can write there plants links where the appliance
 * will write. The partial file's name is random; were it guessed, the file is still never
 * opened through a link or over anything already there.
 */
describe("a backup's partial file", () => {
  const plant = () => {
    const folder = makeTempDir('signdesk-shared-');
    const victim = path.join(makeTempDir('signdesk-victim-'), 'keepme.txt');
    fs.writeFileSync(victim, 'precious\n');
    return { folder, victim, finalFile: path.join(folder, 'signdesk-backup-20261207-120000.sdbackup') };
  };

  it('is not opened through a symlink planted at its very name, and the link target stays as it was', () => {
    const { folder, victim, finalFile } = plant();
    fs.symlinkSync(victim, path.join(folder, '.signdesk-backup-20261207-120000.sdbackup.guessed.partial'));
    expect(() => createPartialFile(finalFile, 'guessed')).toThrow(/EEXIST|ELOOP/);
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(fs.existsSync(finalFile)).toBe(false);
  });

  it('is not opened over a file already at its name', () => {
    const { folder, finalFile } = plant();
    const planted = path.join(folder, '.signdesk-backup-20261207-120000.sdbackup.guessed.partial');
    fs.writeFileSync(planted, 'planted\n');
    expect(() => createPartialFile(finalFile, 'guessed')).toThrow(/EEXIST/);
    expect(fs.readFileSync(planted, 'utf8')).toBe('planted\n');
  });

  it('takes its final name without replacing a symlink planted there', async () => {
    const { victim, finalFile } = plant();
    fs.symlinkSync(victim, finalFile);
    const partial = createPartialFile(finalFile);
    await new Promise<void>((resolve) => partial.stream.end('SDBACKUP', resolve));
    expect(() => partial.finish()).toThrow(/appeared while the backup was written/);
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious\n');
    partial.discard();
  });
});
