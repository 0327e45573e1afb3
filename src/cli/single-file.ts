/**
 * Entry of the single-file build (`npm run package`): the CLI on the main thread; in a worker
 * thread, which the entry pool (`--threads`) and the batch pool (`--jobs`) start from this same
 * file, an entry worker or a batch worker, told by the worker's data.
 */
import { isMainThread, workerData } from 'node:worker_threads';
import { ENTRY_WORKER_ROLE, type EntryWorkerStart } from '../ingest/pool.js';

if (isMainThread) void import('./main.js');
else if ((workerData as Partial<EntryWorkerStart> | undefined)?.role === ENTRY_WORKER_ROLE) {
  void Promise.all([import('../ingest/entry-worker.js'), import('../analysis/consumers.js')]).then(([worker, consumers]) => worker.serveEntries(consumers));
} else void import('./batch-worker.js');
