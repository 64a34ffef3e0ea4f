import { parentPort, workerData } from 'node:worker_threads';
import { withInflateBudget } from './inflate-budget';
import { toErrorData, type SandboxReply, type SandboxRequest } from './protocol';
import { findNamesBySpelling } from './names-by-spelling';
import { readStreamsInPlace } from './read-in-place';
import { pdfTasks, type PdfTaskName } from './tasks';

// The PDF sandbox's worker thread: one task at a time, replies in order, each task within the
// sandbox's bound on bytes unpacked from compressed streams.
const port = parentPort;
if (!port) throw new Error('the PDF sandbox runs as a worker thread');
const maxInflatedBytes = Number((workerData as { maxInflatedBytes?: number } | undefined)?.maxInflatedBytes);
if (!(maxInflatedBytes > 0)) throw new Error('the PDF sandbox needs workerData.maxInflatedBytes');
readStreamsInPlace();
findNamesBySpelling();

port.on('message', async (request: SandboxRequest) => {
  let reply: SandboxReply;
  try {
    const run = pdfTasks[request.task as PdfTaskName] as (input: unknown) => unknown;
    if (!run) throw new Error(`no PDF task ${request.task}`);
    reply = {
      id: request.id,
      ok: true,
      output: await withInflateBudget(maxInflatedBytes, async () => run(request.input)),
    };
  } catch (error) {
    reply = { id: request.id, ok: false, error: toErrorData(error) };
  }
  port.postMessage(reply);
});

// Ready for tasks: the sandbox starts their clocks from here.
port.postMessage({ ready: true });
