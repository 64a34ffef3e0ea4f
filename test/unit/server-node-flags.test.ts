import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../bench/lib';

describe('the Node flags the headless server runs with', () => {
  it('are the ones npm start, npm run server, the headless fallback and the benchmarks use, and Node takes them', () => {
    const { scripts } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    const fallback = fs.readFileSync('scripts/run-electron.mjs', 'utf8');
    for (const flag of SERVER_NODE_FLAGS) {
      expect(scripts.start).toContain(`node ${flag} `);
      expect(scripts.server).toContain(`node ${flag} `);
      expect(scripts.bench).toContain(`node ${flag} `);
      expect(fallback).toContain(`'${flag}', '--import', 'tsx', 'server/main.ts'`);
    }
    const node = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, '-e', 'process.stdout.write("taken")'], {
      encoding: 'utf8',
    });
    expect(node.stderr).toBe('');
    expect(node.stdout).toBe('taken');
  });
});
