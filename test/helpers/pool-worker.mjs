// A worker for the workerPool tests: echoes tasks, dies on two of them, never answers 'hang'.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', ({ index, task }) => {
  if (task === 'throw') throw new Error('boom in worker');
  if (task === 'exit') process.exit(3);
  if (task === 'hang') return;
  parentPort.postMessage({ index, result: `done ${task}` });
});
