// `npm run content -- <command>`: the site's releases. Publish the checkout's content (validated by the build's own
// validator, rendered by the built code in dist/, stored, made live on every running instance without a restart), list
// releases, roll back, and show what any page said in any release. Reads the store as the server does (LEADS_DB, or
// DATABASE_URL); every publish and rollback is audited as `cli:<os user>`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { cli, CliFailure, readArgs, runAsMain, UsageError, type CliIo } from '../../core/cli.ts';
import { htmlFile } from '../../core/page-paths.ts';
import { contentPaths } from '../../content/paths.ts';
import { formatContentError, readContent, validateAll } from '../../content/validate/validate-content.ts';
import { ConfigError, readConfig } from '../config.ts';
import { ContentError, serverContentOf } from '../content.ts';
import { nginxSiteConf } from '../http/nginx-site.ts';
import { cspHashesOf, pagePathOf } from '../http/static-pages.ts';
import { checkoutChanges, documentMap, readDocuments, writeDocuments } from '../releases/documents.ts';
import { changedLines, visibleLines } from '../releases/page-text.ts';
import {
  knownRelease,
  publish,
  ReleaseError,
  rollback,
  waitForInstances,
  type Confirmation,
} from '../releases/publisher.ts';
import { CipherError } from '../store/shared/cipher.ts';
import { KeyError } from '../store/shared/key-file.ts';
import { actorOf, withStore } from './cli-store.ts';
import { propose } from './content-propose.ts';

export const USAGE = `Usage: npm run content -- <command>

  publish [--message "..."]  validate the checkout's pages/ and site/, build them with the code in dist/ (npm run
                             build), store the result as a release and make it live on every running instance;
                             prints release=<id> live=<confirmed>/<running>
  releases [--json]          every release: id, time, author, message, pages changed since the one before, and
                             which one is live (--json: one JSON array)
  rollback <id>              make an earlier release live again (recorded as an event; nothing is deleted)
  show <id> <path>           print a page (/services/medical-detox) exactly as that release served it
  diff <a> <b>               the pages that differ between two releases, with their changed visible text
  export <id> <dir>          write a release as files: <dir>/site (the root for nginx) and <dir>/nginx/site.conf
  pull [<id>] [--force]      write the live release's documents (or release <id>'s) into this checkout's pages/ and
                             site/, removing the documents it does not hold, so git mirrors what is published;
                             refused while git shows uncommitted changes there, unless --force
  propose --title "..."      make the checkout's content changes (against the live release's documents) a change
                             set, authored cli:<os user>, for review in the staff area like any other; prints its id

Reads LEADS_DB (default data/leads.db) or DATABASE_URL and the lead key as the server does (npm run leads -- help);
builds with the code in the folder above CLIENT_DIR (default dist/).
`;

const pagesOf = (hashes: ReadonlyMap<string, string>) =>
  new Map([...hashes].filter(([path]) => path.endsWith('.html')));

/** The page paths whose HTML differs between two releases' file hashes (added and removed pages too). */
function changedPages(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): string[] {
  const a = pagesOf(before);
  const b = pagesOf(after);
  return [...new Set([...a.keys(), ...b.keys()])].filter((path) => a.get(path) !== b.get(path)).sort();
}

/** The command's `count` words after its name, or a UsageError saying what it takes. */
function words(rest: readonly string[], count: 1, takes: string): [string];
function words(rest: readonly string[], count: 2, takes: string): [string, string];
function words(rest: readonly string[], count: number, takes: string): string[] {
  const { positionals } = readArgs(rest, {}, { positionals: true, usage: USAGE });
  if (positionals.length !== count) throw new UsageError(takes);
  return positionals;
}

/** `git status` of the checkout's content folders: the changes a pull would overwrite (none outside a git checkout). */
function uncommittedContent(cwd: string): string[] {
  try {
    return execFileSync('git', ['status', '--porcelain', '--', 'pages', 'site'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .split('\n')
      .filter(Boolean);
  } catch {
    return [];
  }
}

const confirmationLine = ({ release, confirmed, running }: Confirmation) =>
  `release=${release} live=${confirmed}/${running}\n`;

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  const config = readConfig(io.env, io.cwd);
  const codeDir = dirname(config.clientDir);
  const actor = actorOf(io);
  const waiting = () => io.err('Another publish or rollback is running; waiting for it to finish...\n');
  switch (command) {
    case 'publish': {
      const { values } = readArgs(rest, { message: { type: 'string' } }, { usage: USAGE });
      const root = contentPaths(io.cwd);
      const problems = validateAll(root, readContent(root));
      for (const problem of problems) io.err(`${formatContentError(problem)}\n`);
      if (problems.length) {
        io.err(
          `\n${problems.length} content error${problems.length === 1 ? '' : 's'}: nothing was published.\n`,
        );
        return 1;
      }
      const documents = readDocuments(io.cwd);
      return withStore(io, async (store) => {
        const release = await publish(store, {
          codeDir,
          // The live release's review lines carry over for pages whose clinical content stays as reviewed; this gives
          // none of its own: only a reviewed change set does (server/releases/reviews.ts).
          documents,
          author: actor,
          message: values.message ?? 'Published from the command line',
          onWait: waiting,
          onBuild: () => io.err(`Building the site with the code in ${codeDir}...\n`),
        });
        io.err(`Stored release ${release.id}; waiting for the running instances to serve it...\n`);
        const confirmation = await waitForInstances(store.releases, release.id);
        io.out(confirmationLine(confirmation));
        return 0;
      });
    }
    case 'rollback': {
      const [id] = words(rest, 1, 'rollback takes one release id');
      return withStore(io, async (store) => {
        const release = await rollback(store, Number(id), { actor, onWait: waiting });
        io.out(confirmationLine(await waitForInstances(store.releases, release.id)));
        return 0;
      });
    }
    case 'releases': {
      const { values } = readArgs(rest, { json: { type: 'boolean' } }, { usage: USAGE });
      return withStore(io, async (store) => {
        const [list, live] = await Promise.all([store.releases.list(), store.releases.live()]);
        const rows = [];
        let before = new Map<string, string>();
        for (const release of list) {
          const hashes = await store.releases.fileHashes(release.id);
          rows.push({
            ...release,
            live: release.id === live?.releaseId,
            pagesChanged: changedPages(before, hashes),
          });
          before = hashes;
        }
        if (values.json) {
          io.out(
            `${JSON.stringify(rows.map(({ pagesChanged, ...row }) => ({ ...row, pagesChanged: pagesChanged.map(pagePathOf) })))}\n`,
          );
          return 0;
        }
        if (!rows.length)
          io.out('No releases yet: the server stores the build in dist/ as release 1 at its first start.\n');
        for (const row of rows)
          io.out(
            `${row.live ? '*' : ' '} ${String(row.id).padStart(4)}  ${row.at.slice(0, 19).replace('T', ' ')}  ` +
              `${row.author}  ${row.pagesChanged.length} page${row.pagesChanged.length === 1 ? '' : 's'} changed  ` +
              `${row.message}\n`,
          );
        if (rows.length) io.out('(* live)\n');
        return 0;
      });
    }
    case 'show': {
      const [id, path] = words(rest, 2, 'show takes a release id and a page path');
      return withStore(io, async (store) => {
        const release = await knownRelease(store.releases, id);
        const file = path === '/404' ? '404.html' : htmlFile(path.startsWith('/') ? path : `/${path}`);
        const page = await store.releases.file(release.id, file);
        if (!page) throw new CliFailure(`Release ${release.id} has no page ${path}`);
        io.out(page.toString('utf8'));
        return 0;
      });
    }
    case 'diff': {
      const [first, second] = words(rest, 2, 'diff takes two release ids');
      return withStore(io, async (store) => {
        const a = await knownRelease(store.releases, first);
        const b = await knownRelease(store.releases, second);
        const pages = changedPages(
          await store.releases.fileHashes(a.id),
          await store.releases.fileHashes(b.id),
        );
        if (!pages.length) io.out(`Releases ${a.id} and ${b.id} serve the same pages.\n`);
        for (const file of pages) {
          const [before, after] = await Promise.all([
            store.releases.file(a.id, file),
            store.releases.file(b.id, file),
          ]);
          const state = !before ? ' (added)' : !after ? ' (removed)' : '';
          io.out(`${pagePathOf(file)}${state}\n`);
          const { removed, added } = changedLines(
            visibleLines(before?.toString('utf8') ?? ''),
            visibleLines(after?.toString('utf8') ?? ''),
          );
          for (const line of removed) io.out(`  - ${line}\n`);
          for (const line of added) io.out(`  + ${line}\n`);
        }
        return 0;
      });
    }
    case 'export': {
      const [id, folder] = words(rest, 2, 'export takes a release id and a folder');
      return withStore(io, async (store) => {
        const release = await knownRelease(store.releases, id);
        const dir = resolve(io.cwd, folder);
        const siteDir = join(dir, 'site');
        const files = await store.releases.files(release.id);
        for (const [path, bytes] of files) {
          const file = join(siteDir, ...path.split('/'));
          mkdirSync(dirname(file), { recursive: true });
          writeFileSync(file, bytes);
        }
        const { redirects } = serverContentOf(documentMap(await store.releases.documents(release.id)));
        mkdirSync(join(dir, 'nginx'), { recursive: true });
        writeFileSync(join(dir, 'nginx', 'site.conf'), nginxSiteConf(siteDir, cspHashesOf(files), redirects));
        io.out(
          `Wrote release ${release.id} to ${siteDir} (${files.size} files) and ${join(dir, 'nginx', 'site.conf')}\n`,
        );
        return 0;
      });
    }
    case 'pull': {
      const { values, positionals } = readArgs(
        rest,
        { force: { type: 'boolean' } },
        { positionals: true, usage: USAGE },
      );
      if (positionals.length > 1) throw new UsageError('pull takes at most one release id');
      const edited = uncommittedContent(io.cwd);
      if (edited.length > 0 && !values.force) {
        io.err(
          `These content files have changes git has not committed, which a pull would overwrite:\n${edited.map((line) => `  ${line}\n`).join('')}` +
            'Commit or stash them first, or pull with --force to replace them.\n',
        );
        return 1;
      }
      return withStore(io, async (store) => {
        const id = positionals[0] ?? String((await store.releases.live())?.releaseId ?? '');
        if (id === '') throw new ReleaseError('No release is live yet: there is nothing to pull.');
        const release = await knownRelease(store.releases, id);
        const documents = await store.releases.documents(release.id);
        const { added, changed, removed } = checkoutChanges(readDocuments(io.cwd), documents);
        writeDocuments(io.cwd, documents);
        for (const path of removed) rmSync(join(io.cwd, ...path.split('/')));
        for (const [sign, paths] of [
          ['+', added],
          ['~', changed],
          ['-', removed],
        ] as const)
          for (const path of paths) io.out(`${sign} ${path}\n`);
        io.out(
          `Wrote release ${release.id}'s content: ${changed.length} changed, ${added.length} added, ${removed.length} removed.\n`,
        );
        return 0;
      });
    }
    case 'propose': {
      const { values } = readArgs(rest, { title: { type: 'string' } }, { usage: USAGE });
      const title = values.title?.trim();
      if (!title) throw new UsageError('propose takes --title "..."');
      const root = contentPaths(io.cwd);
      const problems = validateAll(root, readContent(root));
      for (const problem of problems) io.err(`${formatContentError(problem)}\n`);
      if (problems.length) {
        io.err(
          `\n${problems.length} content error${problems.length === 1 ? '' : 's'}: nothing was proposed.\n`,
        );
        return 1;
      }
      return withStore(io, (store) =>
        propose(store, { title, author: actor, documents: readDocuments(io.cwd), io }),
      );
    }
    default:
      throw new UsageError(command === undefined ? 'Which command?' : `Unknown command: ${command}`);
  }
}

/** An error of the database or the system (it has a code: ECONNREFUSED, SQLITE_BUSY, 57P01...), not of this code. */
const isStoreFault = (error: unknown) =>
  error instanceof Error && typeof (error as { code?: unknown }).code === 'string';

/** The store failing part way says so plainly: nothing is made live unless its last step committed. */
async function runSafely(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return await run(argv, io);
  } catch (error) {
    if (!isStoreFault(error)) throw error;
    throw new CliFailure(
      `The store failed: ${(error as Error).message}. Nothing was changed unless the command said so; ` +
        'the live site is as it was. Check LEADS_DB or DATABASE_URL, and run the command again.',
    );
  }
}

export const runContentCli = cli(runSafely, USAGE, [
  ConfigError,
  ContentError,
  KeyError,
  CipherError,
  ReleaseError,
]);

await runAsMain(import.meta.url, runContentCli);
