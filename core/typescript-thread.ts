// A worker thread that runs one of our TypeScript modules, as the process that starts it does: tsx (a run-time
// dependency) is registered inside the thread before the module is loaded. The lead writer (server/store/sqlite/) and
// the spelling check (content/validate/) each keep their work off the thread that answers visitors this way.
// Node-only.
import { Worker, type WorkerOptions } from 'node:worker_threads';

const TSX_API = import.meta.resolve('tsx/esm/api');

/** Starts a thread running the module at `module` (a file: URL, such as `new URL('./x-thread.ts', import.meta.url)`). */
export function typeScriptThread(module: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  const boot = `import(${JSON.stringify(TSX_API)}).then(({ tsImport }) => tsImport(${JSON.stringify(module.href)}, ${JSON.stringify(module.href)}))`;
  return new Worker(boot, { ...options, eval: true });
}
