// The spelling check of the editors and of a change set's publish: what `npm run check:spelling` would flag in a
// draft, at its field, in the words staff read (British spelling; not in the dictionary, with a suggestion). The local
// studio and the staff area's editor both ask here, and a publish refuses a set with a misspelling: one published
// would fail `npm run check` after `npm run content -- pull`.
//
// cspell runs in a worker thread of its own (spelling-thread.ts): loading its dictionaries takes over a second of CPU
// and a check a few hundred milliseconds, which on the server's thread would hold every page a visitor asked for
// meanwhile. The thread starts once per process (warmSpelling() at start, in the background), and stops keeping the
// process alive when idle. Node-only; cspell is a run-time dependency for this.
import type { Worker } from 'node:worker_threads';
import { typeScriptThread } from '../../core/typescript-thread.ts';
import { valueAt } from '../json-pointer.ts';
import type { Misspelling } from './cspell-lint.ts';
import type { ProblemFix } from './problems.ts';

export type SpellingRequest = { id: number; file: string; document: unknown };
export type SpellingReply = { id: number; found: Misspelling[] } | { id: number; error: string };

/** A misspelling as the editors show it at its field, with the fix as one click when cspell suggests one. */
export type SpellingError = {
  code: 'misspelling';
  pointer: string;
  word: string;
  message: string;
  check: 'spelling';
  suggestion?: string;
  fix?: ProblemFix;
};

// The thread runs TypeScript like the rest of the code (core/typescript-thread.ts).
const THREAD_MODULE = new URL('./spelling-thread.ts', import.meta.url);

let thread: Worker | undefined;
let nextId = 0;
const waiting = new Map<
  number,
  { resolve: (found: Misspelling[]) => void; reject: (error: Error) => void }
>();

/** Only while a check waits does the thread keep the process alive (a CLI or test ends when its work is done). */
const holdWhileWaiting = (worker: Worker) => (waiting.size > 0 ? worker.ref() : worker.unref());

function started(): Worker {
  if (thread) return thread;
  const worker = typeScriptThread(THREAD_MODULE);
  worker.on('message', (reply: SpellingReply) => {
    const waiter = waiting.get(reply.id);
    waiting.delete(reply.id);
    if ('error' in reply) waiter?.reject(new Error(`the spelling check failed: ${reply.error}`));
    else waiter?.resolve(reply.found);
    holdWhileWaiting(worker);
  });
  const fail = (error: Error) => {
    if (thread !== worker) return;
    thread = undefined;
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  worker.on('error', (error) => fail(new Error(`the spelling thread failed: ${error.message}`)));
  worker.on('exit', (code) => fail(new Error(`the spelling thread stopped (exit code ${code})`)));
  worker.unref();
  return (thread = worker);
}

/** Every word of `document` (saved as `file`, a path in the content root) that `npm run check:spelling` would flag. */
export function misspellings(file: string, document: unknown): Promise<Misspelling[]> {
  const worker = started();
  const id = (nextId += 1);
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    holdWhileWaiting(worker);
    worker.postMessage({ id, file, document } satisfies SpellingRequest);
  });
}

const spellingMessage = (word: string, flagged: boolean, suggestion: string | undefined) =>
  flagged
    ? `“${word}” is British spelling; the site is written in American English${suggestion ? `: “${suggestion}”` : ''}`
    : `“${word}” is not in the dictionary${suggestion ? `; did you mean “${suggestion}”?` : ''} If it is right (a name, a medical term), a developer adds it to cspell-words.txt`;

/** The misspellings of `document` (saved as `file`) in the editors' words, each with its fix when cspell has one. */
export async function spellingErrors(file: string, document: unknown): Promise<SpellingError[]> {
  return (await misspellings(file, document)).map(({ pointer, word, flagged, suggestions }) => {
    const suggestion = suggestions[0];
    const text = valueAt(document, pointer);
    const fixed = suggestion && typeof text === 'string' ? text.replace(word, suggestion) : undefined;
    return {
      code: 'misspelling',
      pointer,
      word,
      message: spellingMessage(word, flagged, suggestion),
      check: 'spelling',
      ...(fixed === undefined ? {} : { suggestion: fixed, fix: { kind: 'replace', pointer, value: fixed } }),
    };
  });
}

/**
 * Starts the thread and has it load the dictionaries, before the first check needs them; never awaited by a server
 * (the first page is served meanwhile). A failure here is the first real check's to report.
 */
export const warmSpelling = (): void =>
  void misspellings('pages/warm-up.json', { title: 'ready' }).catch(() => undefined);
