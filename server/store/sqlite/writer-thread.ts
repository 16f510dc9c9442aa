// The lead writer thread: holds the one connection that writes the lead database and commits each batch it is sent
// (see single-writer.ts). Waiting for the disk here keeps that wait off the thread that answers visitors.
import { parentPort, workerData } from 'node:worker_threads';
import { openLeadDatabase } from './schema.ts';
import { createWriteExecutor } from './write-ops.ts';
import type { WriterReply, WriterRequest } from './single-writer.ts';

const port = parentPort;
if (!port) throw new Error('writer-thread.ts runs as a worker thread, started by single-writer.ts');

const db = openLeadDatabase((workerData as { path: string }).path);
const execute = createWriteExecutor(db);

port.on('message', (request: WriterRequest) => {
  if (request.type === 'close') {
    db.close();
    port.close();
    return;
  }
  const reply: WriterReply = { batch: request.batch, outcomes: execute(request.ops) };
  port.postMessage(reply);
});
