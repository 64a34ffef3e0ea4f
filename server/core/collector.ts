import v8 from 'node:v8';

/**
 * Has V8 mark each heap on the thread that uses it, in small steps between its tasks
 * (incremental marking), not on its helper threads beside it (concurrent marking): for the
 * whole process, the PDF and search workers included, so the server calls it as it starts.
 *
 * On the two-core PCs we build for, the helpers compete with the request thread and the
 * workers for the same cores, and a heap marked beside a thread that keeps allocating is
 * marked over again. Measured under 2 MiB uploads (10 at a time): with the server in a process
 * of its own, the helpers' CPU fell from 2.6 to 0.9 ms an upload, the workers' rose by 0.85
 * (they mark their own heaps now) and the request thread's stayed at 2.6, 0.7 ms less in all;
 * with the load generator in the server's process (`npm run bench`), whose own garbage the
 * helpers marked too, they fell from 8 to 1.6 ms. Search latencies at 1M contracts did not
 * change.
 */
export function markHeapsOnTheirOwnThreads(): void {
  v8.setFlagsFromString('--no-concurrent-marking');
}
