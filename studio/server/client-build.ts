// The editor and its preview frames as a production build, made once and kept in the studio's cache folder: built
// again only when a file it was made from changed (its sources, the renderer, the content it imports, the installed
// packages by their lockfile, the config). React's production build renders a keystroke several times faster than
// the development build Vite's dev server gives (`npm run studio -- --dev`, for work on the studio itself). Before a
// build is served, its folder (studio/cache-dir.ts) and every file of it are checked against the manifest written with
// it: a build changed since, or a manifest naming a folder elsewhere, is not used, and never removed.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { build, type Plugin } from 'vite';
import { prepareStudioCache } from '../cache-dir.ts';

/** Read by the build but not part of its module graph. */
const ALWAYS = ['package-lock.json', 'studio/vite.config.ts', 'studio/cache-dir.ts'];

/** The build's folder, the hashes of the files it was made from, and of every file it wrote. */
type Manifest = { dir: string; inputs: Record<string, string>; outputs: Record<string, string> };
/** A build's folder in the cache, as this code names it: nothing else is ever served or removed. */
const BUILD_DIR = /^client-[0-9a-f]{8}$/;
export type ClientBuild = { dir: string; built: boolean };

const hashOf = (file: string): string | undefined =>
  existsSync(file) ? createHash('sha256').update(readFileSync(file)).digest('hex') : undefined;

const publicFiles = (repository: string): string[] => {
  const folder = join(repository, 'public');
  return existsSync(folder)
    ? readdirSync(folder, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => relative(repository, join(entry.parentPath, entry.name)))
    : [];
};

/** Every file of the repository (outside node_modules) the build read, by the module ids it resolved. */
function inputsOf(repository: string, moduleIds: Iterable<string>): string[] {
  const files = new Set([...ALWAYS, ...publicFiles(repository)]);
  for (const id of moduleIds) {
    const file = id.split('?')[0] ?? '';
    if (file.startsWith('\0') || !file.startsWith(repository + sep)) continue;
    const name = relative(repository, file);
    if (!name.split(sep).includes('node_modules')) files.add(name);
  }
  return [...files].sort();
}

function readManifest(path: string): Manifest | undefined {
  try {
    const manifest = JSON.parse(readFileSync(path, 'utf8')) as Partial<Manifest>;
    const valid =
      typeof manifest.dir === 'string' &&
      BUILD_DIR.test(manifest.dir) &&
      typeof manifest.inputs === 'object' &&
      typeof manifest.outputs === 'object';
    return valid ? (manifest as Manifest) : undefined;
  } catch {
    return undefined;
  }
}

/** Every file of a build folder, by its path inside it, with its hash. */
function filesOf(dir: string): Record<string, string> {
  if (!existsSync(dir)) return {};
  return Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => !entry.isDirectory())
      .map((entry) => {
        const file = join(entry.parentPath, entry.name);
        return [relative(dir, file), entry.isFile() ? (hashOf(file) ?? '') : 'not a file'];
      })
      .sort(([a], [b]) => (a ?? '').localeCompare(b ?? '')),
  );
}

/** Whether the build folder holds exactly the files the manifest says it wrote, unchanged. */
function sameFiles(dir: string, outputs: Record<string, string>): boolean {
  const found = filesOf(dir);
  const names = Object.keys(outputs);
  return (
    names.length > 0 &&
    Object.keys(found).length === names.length &&
    names.every((name) => found[name] === outputs[name])
  );
}

/** The folder to serve the editor from, built now if no earlier build matches the repository's files. */
export async function studioClient(repositoryPath: string): Promise<ClientBuild> {
  const repository = resolve(repositoryPath);
  const cache = prepareStudioCache(repository);
  const manifestPath = join(cache, 'client.json');
  const previous = readManifest(manifestPath);
  if (
    previous &&
    existsSync(join(cache, previous.dir, 'index.html')) &&
    sameFiles(join(cache, previous.dir), previous.outputs) &&
    Object.entries(previous.inputs).every(([file, hash]) => hashOf(join(repository, file)) === hash)
  )
    return { dir: join(cache, previous.dir), built: false };

  // A folder of its own for each build, named in the manifest only once complete: a studio starting beside this
  // one never sees half a build.
  const dir = `client-${randomUUID().slice(0, 8)}`;
  let moduleIds: string[] = [];
  const record: Plugin = {
    name: 'studio-build-inputs',
    buildEnd() {
      moduleIds = [...this.getModuleIds()];
    },
  };
  await build({
    configFile: join(repository, 'studio/vite.config.ts'),
    logLevel: 'warn',
    plugins: [record],
    build: { outDir: join(cache, dir), emptyOutDir: true, chunkSizeWarningLimit: 4096 },
  });
  const inputs = Object.fromEntries(
    inputsOf(repository, moduleIds).map((file) => [file, hashOf(join(repository, file)) ?? '']),
  );
  const temporary = `${manifestPath}.${dir}`;
  const outputs = filesOf(join(cache, dir));
  writeFileSync(temporary, JSON.stringify({ dir, inputs, outputs } satisfies Manifest), { mode: 0o600 });
  renameSync(temporary, manifestPath);
  if (previous && previous.dir !== dir) rmSync(join(cache, previous.dir), { recursive: true, force: true });
  return { dir: join(cache, dir), built: true };
}
