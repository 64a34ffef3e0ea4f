// A worker thread's first module in a checkout (sources under tsx or vitest): it registers tsx's
// loader in this thread, then runs the TypeScript entry named in workerData. A built server
// starts its workers on their own bundles instead (server/core/worker-thread.ts).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

// Big plain modules first, by Node itself: tsx then finds them loaded (see CHECKOUT_PRELOADS).
for (const specifier of workerData.preload ?? []) await import(specifier);
register();
await import(workerData.entryUrl);
