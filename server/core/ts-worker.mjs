// A worker thread's first module in a checkout (sources under tsx or vitest): it registers tsx's
// loader in this thread, then runs the TypeScript entry named in workerData. A built server
// starts its workers on their own bundles instead (server/core/worker-thread.ts).
import { register as registerHooks } from 'node:module';
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
// Registered last, so asked first: the big plain modules that tsx should not read through.
registerHooks('./plain-modules.mjs', import.meta.url);
// eslint-disable-next-line layout/server-layers -- the worker's entry, named by the code that starts it
await import(workerData.entryUrl);
