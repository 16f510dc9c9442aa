// The editor and its preview frames as a production build, made once and kept in the studio's cache folder: built
// again only when a file it was made from changed (its sources, the renderer, the content it imports, the installed
// packages by their lockfile, the config). React's production build renders a keystroke several times faster than
// the development build Vite's dev server gives (`npm run studio -- --dev`, for work on the studio itself).
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { build, type Plugin } from 'vite';
import { studioCacheDir } from '../cache-dir.ts';

/** Read by the build but not part of its module graph. */
const ALWAYS = ['package-lock.json', 'studio/vite.config.ts', 'studio/cache-dir.ts'];

type Manifest = { dir: string; inputs: Record<string, string> };
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
    return JSON.parse(readFileSync(path, 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

/** The folder to serve the editor from, built now if no earlier build matches the repository's files. */
export async function studioClient(repositoryPath: string): Promise<ClientBuild> {
  const repository = resolve(repositoryPath);
  const cache = studioCacheDir(repository);
  const manifestPath = join(cache, 'client.json');
  const previous = readManifest(manifestPath);
  if (
    previous &&
    existsSync(join(cache, previous.dir, 'index.html')) &&
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
  mkdirSync(cache, { recursive: true });
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
  writeFileSync(temporary, JSON.stringify({ dir, inputs } satisfies Manifest));
  renameSync(temporary, manifestPath);
  if (previous && previous.dir !== dir) rmSync(join(cache, previous.dir), { recursive: true, force: true });
  return { dir: join(cache, dir), built: true };
}
