// `npm run content -- propose --title "..."` (issue #28, item 9): the checkout's content changes, against the live
// release's documents, become a change set authored `cli:<os user>`, with each changed document saved as a revision,
// exactly as the content API's saves would: reviewed (four eyes, claim kinds) and published like any other, never
// directly. Audited as the API's acts are (`change-create`, `change-edit`).
import { randomUUID } from 'node:crypto';
import type { CliIo } from '../../core/cli.ts';
import { ReleaseError } from '../releases/publisher.ts';
import { checkoutChanges, documentMap } from '../releases/documents.ts';
import type { LeadStore } from '../store/contract/lead-store.ts';
import type { ReleaseDocument } from '../store/contract/release-store.ts';

export async function propose(
  store: LeadStore,
  {
    title,
    author,
    documents,
    io,
  }: { title: string; author: string; documents: readonly ReleaseDocument[]; io: CliIo },
): Promise<number> {
  const live = await store.releases.live();
  if (!live)
    throw new ReleaseError('No release is live yet: publish one first (npm run content -- publish).');
  const liveDocuments = await store.releases.documents(live.releaseId);
  const { added, changed, removed } = checkoutChanges(liveDocuments, documents);
  if (added.length + changed.length + removed.length === 0) {
    io.err(`The checkout's content is what release ${live.releaseId} holds: nothing to propose.\n`);
    return 1;
  }
  const was = documentMap(liveDocuments);
  const now = documentMap(documents);
  const id = randomUUID();
  const at = Date.now();
  await store.changes.create({ id, title, author, baseRelease: live.releaseId, now: at });
  await store.audit.append({ actor: author, action: 'change-create', detail: `${id} propose` });
  for (const [sign, paths] of [
    ['+', added],
    ['~', changed],
    ['-', removed],
  ] as const)
    for (const path of paths) {
      const saved = await store.changes.save(id, {
        path,
        baseText: was.get(path) ?? null,
        text: now.get(path) ?? null,
        expectedVersion: null,
        by: author,
        now: at,
      });
      if (!saved.saved) throw new ReleaseError(`The new change set moved while ${path} was saved in it`);
      await store.audit.append({
        actor: author,
        action: 'change-edit',
        detail: `${id} ${path} ${saved.version}`,
      });
      io.out(`${sign} ${path}\n`);
    }
  io.out(
    `change set ${id}: ${title} (${added.length + changed.length + removed.length} documents; review it in the staff area)\n`,
  );
  return 0;
}
