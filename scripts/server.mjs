// `npm run server` (and `npm start` without Electron): the headless server. It runs the bundle
// `npm run build` makes (dist/server/main.cjs) while that bundle is at least as new as every
// source it was made from: Node then starts it in a fraction of the time the TypeScript
// sources take under tsx. Otherwise (a fresh clone, or sources edited since the build) it runs
// the sources under tsx, saying so in one line.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stopWhenOrphaned } from './stop-when-orphaned.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUNDLE = path.join(root, 'dist/server/main.cjs');
const INPUTS = path.join(root, 'dist/server/main.inputs.json');

/** Why the bundle cannot be run, or undefined when it is up to date. */
export function staleBundleReason() {
  let built;
  let inputs;
  try {
    built = fs.statSync(BUNDLE).mtimeMs;
    inputs = JSON.parse(fs.readFileSync(INPUTS, 'utf8')).inputs;
  } catch {
    return 'not built yet';
  }
  for (const input of inputs) {
    let changed;
    try {
      changed = fs.statSync(path.join(root, input)).mtimeMs;
    } catch {
      return `${input} is gone`;
    }
    if (changed > built) return `${input} changed since`;
  }
  return undefined;
}

export async function runServer() {
  // npm's pid got SIGTERM or SIGINT and its shell died of it: the server stops as if it got SIGTERM.
  stopWhenOrphaned(() => process.kill(process.pid, 'SIGTERM'));
  const reason = staleBundleReason();
  if (reason === undefined) {
    createRequire(import.meta.url)(BUNDLE);
    return;
  }
  console.log(
    `Running the server from its TypeScript sources (dist/server/main.cjs: ${reason}; npm run build makes it start faster).`,
  );
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(path.join(root, 'server/main.ts')).href);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runServer();
