import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';

type Step = { command: string; expected: string[] };

/**
 * Runs a command without blocking the event loop: the server under test shares this process,
 * and a blocked loop makes its keep-alive timers and the client's disagree.
 */
export function sh(command: string, args: string[], cwd?: string): Promise<{ status: number; output: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

/** The commands of README.txt (lines "  $ …") with what each must print (the "  -> …" lines after it). */
function stepsOf(readme: string): Step[] {
  const steps: Step[] = [];
  for (const line of readme.split('\n')) {
    const command = /^ {2}\$ (.*)$/.exec(line);
    const expected = /^ {2}-> (.*)$/.exec(line);
    if (command) steps.push({ command: command[1]!, expected: [] });
    else if (expected) steps.at(-1)!.expected.push(expected[1]!);
  }
  return steps;
}

/** Checks one "->" line against what the command printed, as a person reading it would. */
function checkExpectation(expected: string, output: string, command: string): void {
  const where = `${command}\n-> ${expected}\n${output}`;
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  const quoted = [...expected.matchAll(/"([^"]+)"/g)].map((match) => match[1]!);
  if (expected === 'prints nothing') return void expect(output.trim(), where).toBe('');
  if (expected === 'every line ends in ": OK"') {
    expect(lines.length, where).toBeGreaterThan(0);
    for (const line of lines) expect(line, where).toMatch(/: OK$/);
    return;
  }
  const count = /^(\d+) lines$/.exec(expected);
  if (count) return void expect(lines, where).toHaveLength(Number(count[1]));
  if (expected.startsWith('no line ')) return void expect(output, where).not.toContain(quoted[0]);
  const last = /^the last line is (\S+)$/.exec(expected);
  if (last) return void expect(lines.at(-1), where).toBe(last[1]);
  if (expected.startsWith('a line ') || expected.startsWith('"')) {
    for (const part of quoted) expect(output, where).toContain(part);
    return;
  }
  expect(output, where).toContain(expected);
}

/** Unzips with the system's unzip, as the office's expert would. */
export async function unzip(zip: Buffer, dir: string): Promise<string> {
  const file = path.join(dir, 'evidence.zip');
  fs.writeFileSync(file, zip);
  const result = await sh('unzip', ['-q', file, '-d', dir]);
  expect(result.status, result.output).toBe(0);
  const [folder] = fs.readdirSync(dir).filter((name) => fs.statSync(path.join(dir, name)).isDirectory());
  return path.join(dir, folder!);
}

/** Follows README.txt step by step in the unpacked folder; returns the commands run. */
export async function followReadme(folder: string, tsaRoot: string): Promise<string[]> {
  fs.copyFileSync(tsaRoot, path.join(folder, 'TSA-ROOT.pem'));
  const readme = fs.readFileSync(path.join(folder, 'README.txt'), 'utf8');
  const steps = stepsOf(readme);
  for (const { command, expected } of steps) {
    const { status, output } = await sh('bash', ['-c', command], folder);
    expect(status, `${command}\n${output}`).toBe(0);
    for (const line of expected) checkExpectation(line, output, command);
  }
  return steps.map((step) => step.command);
}
