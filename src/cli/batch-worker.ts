/**
 * A worker thread of `analyze --jobs N`: loads the rules once, then answers each input with its
 * report or the one-line reason there is none (see `workerPool` in batch.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { describeError } from '../core/problems.js';
import { reportOf, specRiskData, specRules, type BatchSpec, type Outcome, type PoolReply, type PoolRequest } from './batch.js';

const port = parentPort;
if (port === null) throw new Error('batch-worker.js runs only as a worker thread');
const spec = workerData as BatchSpec;
// Loaded once, before the first input; a failure to load them fails each input with its reason.
const loaded = Promise.all([specRules(spec), specRiskData(spec)]);

port.on('message', (request: PoolRequest<string>) => {
  const reply = (result: Outcome): void => port.postMessage({ index: request.index, result } satisfies PoolReply<Outcome>);
  loaded.then(([rules, riskData]) => reportOf(request.task, spec, rules, riskData)).then(
    (report) => reply({ report }),
    (err: unknown) => reply({ error: describeError(err) }),
  );
});
