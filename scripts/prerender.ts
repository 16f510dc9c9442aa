// npm run build's prerender step, and a command line over the prerender library (core/prerender/): renders every page
// of a content root with a built code folder into an empty folder.
//   node --import tsx scripts/prerender.ts [--code .build] [--content .] --out <dir>
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { ROOT } from '../content/paths.ts';
import { prerenderSite } from '../core/prerender/index.ts';

const { values } = parseArgs({
  options: {
    code: { type: 'string', default: '.build' },
    content: { type: 'string', default: '.' },
    out: { type: 'string' },
  },
});
if (!values.out) {
  console.error(
    'Usage: prerender [--code <built code folder>] [--content <content root>] --out <empty folder>',
  );
  process.exit(2);
}
try {
  const started = performance.now();
  const { pages } = await prerenderSite({
    codeDir: resolve(ROOT, values.code),
    contentRoot: resolve(ROOT, values.content),
    outDir: resolve(ROOT, values.out),
  });
  console.log(
    `prerendered ${pages} pages into ${values.out} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
