/**
 * Entry of the single-file build (`npm run package`): the CLI on the main thread; in a worker
 * thread, which the batch pool starts from this same file, a batch worker.
 */
import { isMainThread } from 'node:worker_threads';

if (isMainThread) void import('./main.js');
else void import('./batch-worker.js');
