import fs from 'node:fs';
import path from 'node:path';

/**
 * Self time per function (or per package with `--by package`) from a V8 `.cpuprofile`, as
 * `node --cpu-prof` writes it:
 *
 *   npx tsx scripts/read-cpuprofile.ts <file.cpuprofile> [--by function|package] [--inclusive] [--top 40]
 *
 * With `--inclusive` each row is the time spent in that function or anything it called; with
 * `--owner <regex>` each sample counts for its innermost function whose package (or file)
 * matches, e.g. `--owner '^(server|shared)/|^router$'` to see what our own code costs.
 */
type Frame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type Node = { id: number; callFrame: Frame; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

function packageOf(url: string): string {
  if (!url) return '(native)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) return url;
  const cwd = process.cwd();
  const file = url.replace(/^file:\/\//, '');
  return file.startsWith(cwd) ? path.relative(cwd, file) : file;
}

function labelOf(frame: Frame, by: string): string {
  if (by === 'package') return packageOf(frame.url);
  const name = frame.functionName || '(anonymous)';
  return frame.url ? `${name} ${packageOf(frame.url)}:${frame.lineNumber + 1}` : name;
}

/**
 * Self time per label; with `isInclusive`, the time spent in a label or anything it called;
 * with `owner`, each sample's time goes to its innermost frame whose package matches (so a
 * library call counts for the code of ours that made it).
 */
export function timesOf(
  profile: Profile,
  by: string,
  isInclusive: boolean,
  owner?: RegExp,
): { total: number; rows: Array<[string, number]> } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const totals = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const micros = profile.timeDeltas[index] ?? 0;
    total += micros;
    if (owner) {
      let label = '(other)';
      for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
        const frame = byId.get(at)?.callFrame;
        if (frame && owner.test(packageOf(frame.url))) {
          label = labelOf(frame, by);
          break;
        }
      }
      totals.set(label, (totals.get(label) ?? 0) + micros);
      return;
    }
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = isInclusive ? parentOf.get(at) : undefined) {
      const node = byId.get(at);
      if (!node) break;
      const label = labelOf(node.callFrame, by);
      if (seen.has(label)) continue;
      seen.add(label);
      totals.set(label, (totals.get(label) ?? 0) + micros);
    }
  });
  return { total, rows: [...totals].sort((a, b) => b[1] - a[1]) };
}

function main(): void {
  const args = process.argv.slice(2);
  const file = args.find((arg) => arg.endsWith('.cpuprofile'));
  if (!file) throw new Error('usage: read-cpuprofile <file.cpuprofile> [--by function|package] [--top N]');
  const by = args.includes('--by') && args[args.indexOf('--by') + 1] === 'package' ? 'package' : 'function';
  const top = args.includes('--top') ? Number(args[args.indexOf('--top') + 1]) : 40;
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const owner = args.includes('--owner') ? new RegExp(args[args.indexOf('--owner') + 1] ?? '') : undefined;
  const { total, rows } = timesOf(profile, by, args.includes('--inclusive'), owner);
  process.stdout.write(`${(total / 1000).toFixed(0)} ms sampled\n`);
  for (const [label, micros] of rows.slice(0, top)) {
    process.stdout.write(
      `${((micros / total) * 100).toFixed(1).padStart(5)} %  ${(micros / 1000).toFixed(0).padStart(6)} ms  ${label}\n`,
    );
  }
}

main();
