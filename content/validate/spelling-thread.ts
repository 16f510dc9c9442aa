// The spelling thread: runs cspell (cspell-lint.ts) for spelling.ts, so loading its dictionaries (over a second of
// CPU) and each check (a few hundred milliseconds with suggestions) never hold the thread that answers visitors.
import { parentPort } from 'node:worker_threads';
import { misspellings } from './cspell-lint.ts';
import type { SpellingReply, SpellingRequest } from './spelling.ts';

const port = parentPort;
if (!port) throw new Error('spelling-thread.ts runs as a worker thread, started by spelling.ts');

// One check at a time, in the order asked: cspell's own caches are not shared between concurrent lints.
let turn: Promise<unknown> = Promise.resolve();
port.on('message', ({ id, file, document }: SpellingRequest) => {
  turn = turn.then(async () => {
    let reply: SpellingReply;
    try {
      reply = { id, found: await misspellings(file, document) };
    } catch (error) {
      reply = { id, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
});
