// A worker thread's first module in a checkout (sources under tsx or vitest): it registers tsx's
// loader in this thread, then runs the TypeScript entry named in workerData. A built server
// starts its workers on their own bundles instead (server/core/worker-thread.ts).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

const unregister = register();
await import(workerData.entryUrl);
// The entry's TypeScript graph is loaded (entries import their modules statically); what they
// import later is plain JavaScript (pdf.js, 3 MB), which tsx's loader would only slow down.
await unregister();
