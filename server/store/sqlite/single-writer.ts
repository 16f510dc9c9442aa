// The one writer of a lead database. Every write (new leads, alert bookkeeping) is queued and committed in batches
// (shared/group-commit.ts) by a worker thread holding its own connection, so the event loop that answers visitors never
// waits for the disk and never competes with another writer for SQLite's lock. An in-memory database (tests) and
// the staff CLI write on the caller's thread instead: nothing else writes there at the same time.
import type { Worker } from 'node:worker_threads';
import { typeScriptThread } from '../../../core/typescript-thread.ts';
import type Database from 'better-sqlite3';
import { createBatchWriter, MAX_QUEUED_WRITES } from '../shared/group-commit.ts';
import {
  createWriteExecutor,
  deadlineOf,
  type OpOutcome,
  type OpValue,
  type WriteOp,
  type WriteResults,
} from './write-ops.ts';

export type WriterRequest = { type: 'batch'; batch: number; ops: WriteOp[] } | { type: 'close' };
export interface WriterReply {
  batch: number;
  outcomes: OpOutcome[];
}

export interface LeadWriter {
  run<K extends WriteOp['kind']>(op: Extract<WriteOp, { kind: K }>): Promise<WriteResults[K]>;
  /** False after the writer failed (its thread died, or a whole batch could not be committed), until a commit works. */
  healthy(): boolean;
  /** Commits what is queued, then stops the thread. */
  close(): Promise<void>;
}

// The thread runs TypeScript like the rest of the server (core/typescript-thread.ts).
const THREAD_MODULE = new URL('./writer-thread.ts', import.meta.url);

/**
 * Sends batches to the writer thread and matches its replies. A thread that dies (it could not open the database, or
 * crashed) fails what it held and reports it through `onFailure`; the next batch starts a new one.
 */
function threadCommitter(path: string, onFailure: () => void) {
  let worker: Worker | undefined;
  let nextBatch = 0;
  const waiting = new Map<
    number,
    { resolve: (outcomes: OpOutcome[]) => void; reject: (error: Error) => void }
  >();

  function start(): Worker {
    const thread = typeScriptThread(THREAD_MODULE, { workerData: { path } });
    thread.on('message', ({ batch, outcomes }: WriterReply) => {
      waiting.get(batch)?.resolve(outcomes);
      waiting.delete(batch);
    });
    const fail = (error: Error) => {
      if (worker !== thread) return;
      worker = undefined;
      onFailure();
      for (const { reject } of waiting.values()) reject(error);
      waiting.clear();
    };
    thread.on('error', (error) => fail(new Error(`the lead writer thread failed: ${error.message}`)));
    thread.on('exit', (code) => fail(new Error(`the lead writer thread stopped (exit code ${code})`)));
    return thread;
  }

  return {
    start() {
      worker ??= start();
    },
    commit(ops: WriteOp[]): Promise<OpOutcome[]> {
      const thread = (worker ??= start());
      const batch = (nextBatch += 1);
      return new Promise((resolve, reject) => {
        waiting.set(batch, { resolve, reject });
        thread.postMessage({ type: 'batch', batch, ops } satisfies WriterRequest);
      });
    },
    async stop() {
      const thread = worker;
      worker = undefined;
      if (!thread) return;
      const exited = new Promise((resolve) => thread.once('exit', resolve));
      thread.postMessage({ type: 'close' } satisfies WriterRequest);
      await exited;
    },
  };
}

/**
 * A writer for the database at `path`: in a worker thread when `db` is undefined (the server), else on `db` in the
 * caller's thread. The thread starts at once, so the first lead does not wait for it to load.
 */
export function createLeadWriter(
  path: string,
  db: Database.Database | undefined,
  { maxQueued = MAX_QUEUED_WRITES }: { maxQueued?: number } = {},
): LeadWriter {
  let failed = false;
  let commit: (ops: WriteOp[]) => OpOutcome[] | Promise<OpOutcome[]>;
  let stop = async (): Promise<void> => undefined;
  if (db) commit = createWriteExecutor(db);
  else {
    const thread = threadCommitter(path, () => (failed = true));
    thread.start();
    commit = thread.commit;
    stop = thread.stop;
  }
  const writer = createBatchWriter<WriteOp, OpValue>(
    async (ops) => {
      try {
        const outcomes = await commit(ops);
        // Every operation failing means the database (not one operation) is the problem: a full disk, a lost file.
        failed = outcomes.every((outcome) => !outcome.ok);
        return outcomes;
      } catch (error) {
        failed = true;
        throw error;
      }
    },
    { maxQueued, deadlineOf },
  );
  let closed = false;
  return {
    run<K extends WriteOp['kind']>(op: Extract<WriteOp, { kind: K }>) {
      if (closed) return Promise.reject(new Error('the lead store is closed'));
      // The executor answers each kind of operation with that kind's result (WriteResults).
      return writer.write(op) as Promise<WriteResults[K]>;
    },
    healthy: () => !closed && !failed,
    async close() {
      closed = true;
      await writer.idle();
      await stop();
    },
  };
}
