// One prerender process of several (core/prerender/index.ts forks it with its job in PRERENDER_JOB): renders its share
// and reports the result back over IPC.
import { renderShare, type RenderJob, type RenderResult } from './render.ts';

const job = JSON.parse(process.env.PRERENDER_JOB ?? 'null') as RenderJob | null;
if (!job || !process.send)
  throw new Error('core/prerender/worker.ts is started by prerenderSite, with PRERENDER_JOB');
let result: RenderResult;
try {
  result = await renderShare(job);
} catch (error) {
  result = {
    cspHashes: {},
    failures: [`prerender process failed: ${(error as Error).stack ?? String(error)}`],
  };
}
// Exit only once the result has reached the parent.
await new Promise<void>((resolve, reject) =>
  process.send?.(result, undefined, {}, (error) => (error ? reject(error) : resolve())),
);
process.exit(0);
