// A process npm started watches its parent: once npm is gone (SIGKILL, a crash) and this process
// was handed to init or a subreaper, it stops as if it had been sent SIGTERM, so no server lives
// on without the npm that started it. (A signal to npm's pid reaches node directly: the npm
// scripts `exec` node, where a shell in between would die of SIGTERM and sit on SIGINT without
// passing either on.) Only under npm (npm_lifecycle_event set): `nohup node scripts/server.mjs &`
// from a shell that then exits keeps running, as asked.
const WATCH_MS = 250;
/** One watch per process (npm start's headless server runs in start.mjs's own process). */
let isWatching = false;

/** Calls `stop` once when this process's parent changes; returns nothing to keep (the timer does not hold the process). */
export function stopWhenOrphaned(stop) {
  if (isWatching || !process.env.npm_lifecycle_event || process.platform === 'win32') return;
  isWatching = true;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    stop();
  }, WATCH_MS);
  timer.unref();
}
