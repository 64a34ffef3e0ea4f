// `npm run server` (and `npm start` without Electron): the headless server. It runs the bundle
// `npm run build` makes (dist/server/main.cjs) while that bundle is at least as new as every
// source it was made from: Node then starts it in a fraction of the time the TypeScript
// sources take under tsx. Otherwise (a fresh clone, or sources edited since the build) it runs
// the sources under tsx, saying so in one line.
import fs from 'node:fs';
import { createRequire, Module } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUNDLE = path.join(root, 'dist/server/main.cjs');
const INPUTS = path.join(root, 'dist/server/main.inputs.json');
/** V8's compiled code of the bundle, kept beside it (see loadWithCodeCache). */
const CODE_CACHE = `${BUNDLE}.v8-cache`;

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

/**
 * Runs a CommonJS bundle as `require` would, but compiled with V8's code cache: most of a cold
 * start is parsing and compiling a few megabytes of JavaScript, which the cache skips. The
 * cache is written once the start-up has compiled what it needs (or at exit), and only when
 * there was none or V8 refused it (another Node version, a new bundle).
 */
function loadWithCodeCache(file) {
  const source = fs.readFileSync(file, 'utf8');
  let cachedData;
  try {
    if (fs.statSync(CODE_CACHE).mtimeMs >= fs.statSync(file).mtimeMs) cachedData = fs.readFileSync(CODE_CACHE);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  const module = { exports: {}, filename: file, id: file, loaded: false };
  const compiled = script.runInThisContext({ displayErrors: true });
  if (cachedData === undefined || script.cachedDataRejected) {
    let isWritten = false;
    const write = () => {
      if (isWritten) return;
      isWritten = true;
      try {
        fs.writeFileSync(CODE_CACHE, script.createCachedData());
      } catch {
        // A read-only checkout only starts a little slower.
      }
    };
    setTimeout(write, 3_000).unref();
    process.once('exit', write);
  }
  compiled.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  module.loaded = true;
  return module.exports;
}

export async function runServer() {
  const reason = staleBundleReason();
  if (reason === undefined) {
    loadWithCodeCache(BUNDLE);
    return;
  }
  console.log(`Running the server from its TypeScript sources (dist/server/main.cjs: ${reason}; npm run build makes it start faster).`);
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(path.join(root, 'server/main.ts')).href);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runServer();
