// What each KB of a page's first-load JavaScript is: the client is built again with source maps into a temporary
// folder, the chunks a page loads before it is usable (the entry and what the hydration loader prefetches with it,
// scripts/prerender.ts) are attributed byte by byte to the package (or our folder) each byte came from, and each
// file's gzip size is shared out in proportion. Run: node --import tsx scripts/first-load-js.ts
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js';
import { ROOT } from '../content/paths.ts';

type Chunk = { file: string; imports?: string[]; dynamicImports?: string[]; isEntry?: boolean };

/** The package a source file belongs to (`react-dom`, `@mantine/core`), or its folder of ours (`renderer/forms`). */
function owner(source: string): string {
  // `--detail <package>` lists that package's own files instead.
  const detail = process.argv[process.argv.indexOf('--detail') + 1];
  if (process.argv.includes('--detail') && detail && source.includes(`node_modules/${detail}/`))
    return source.slice(source.lastIndexOf(`node_modules/${detail}/`) + 'node_modules/'.length);
  const modules = source.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const [scope, name] = source.slice(modules + 'node_modules/'.length).split('/');
    return scope!.startsWith('@') ? `${scope}/${name}` : scope!;
  }
  const path = source.replace(/^(\.\.\/)+/, '').replace(/^\/?work\/[^/]+\//, '');
  return path
    .split('/')
    .slice(0, path.startsWith('blocks/') ? 1 : 2)
    .join('/');
}

const out = mkdtempSync(join(tmpdir(), 'first-load-js-'));
try {
  const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const built = spawnSync(
    process.execPath,
    [vite, 'build', '--sourcemap', '--outDir', out, '--logLevel', 'warn'],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
  if (built.status !== 0) process.exit(built.status ?? 1);
  const manifest = JSON.parse(readFileSync(join(out, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    Chunk
  >;
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry)!;
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    chunk.imports?.forEach(visit);
  };
  files.add(entry.file);
  entry.imports?.forEach(visit);
  // As STARTUP_IMPORTS in scripts/prerender.ts (importing that script would run the prerender).
  for (const source of ['node_modules/react-dom/client.js'])
    visit(entry.dynamicImports!.find((name) => name === source || name.endsWith(`/${source}`))!);

  const shares = new Map<string, number>();
  let total = 0;
  for (const file of files) {
    const code = readFileSync(join(out, file), 'utf8');
    const gzip = gzipSync(code, { level: 9 }).length;
    total += gzip;
    const map = new SourceMapConsumer(
      JSON.parse(readFileSync(join(out, `${file}.map`), 'utf8')) as RawSourceMap,
    );
    const lines = code.split('\n');
    const bytes = new Map<string, number>();
    let last: { line: number; column: number; source: string } | undefined;
    const add = (source: string, count: number) => bytes.set(source, (bytes.get(source) ?? 0) + count);
    map.eachMapping((m) => {
      if (last && last.line === m.generatedLine) add(last.source, m.generatedColumn - last.column);
      else if (last) add(last.source, (lines[last.line - 1]?.length ?? 0) - last.column);
      last = {
        line: m.generatedLine,
        column: m.generatedColumn,
        source: m.source ? owner(m.source) : '(bundler)',
      };
    });
    if (last) add(last.source, (lines[last.line - 1]?.length ?? 0) - last.column);
    const mapped = [...bytes.values()].reduce((a, b) => a + b, 0);
    for (const [source, count] of bytes)
      shares.set(source, (shares.get(source) ?? 0) + (gzip * count) / mapped);
  }
  console.log(`first-load JavaScript: ${(total / 1024).toFixed(1)} KB gzip in ${files.size} files`);
  for (const [source, size] of [...shares].sort((a, b) => b[1] - a[1]))
    if (size >= 100) console.log(`${(size / 1024).toFixed(1).padStart(6)} KB  ${source}`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
