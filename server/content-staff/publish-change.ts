// Publishing a change set (issue #28, item 5), by a publisher's request or its schedule: every required approval must
// be there and current; then, with the publish lock held, the set is rebased onto the live release field by field (a
// field both changed stops it, with the pointers), the whole site is validated and built, and made live through the
// release engine (server/releases/publisher.ts); each instance follows the pointer, so no restart. A failure leaves
// the live release as it was and says why.
import type { Logger } from '../logger.ts';
import { publish, ReleaseError, waitForInstances } from '../releases/publisher.ts';
import type { AuditLog } from '../store/contract/audit-log.ts';
import type { ChangeSet, ChangeStore } from '../store/contract/change-store.ts';
import type { ReleaseStore } from '../store/contract/release-store.ts';
import { contentHash, isStale, missingApprovals, requiredKinds } from './change-review.ts';
import { approvedReviews } from './review-lines.ts';
import type { PageReviews } from '../../renderer/medical-review.ts';
import { liveContent, overlay } from './live-content.ts';
import { rebaseDocument, type Conflict } from './rebase.ts';
import { misspellingSentence, setMisspellings } from './set-spelling.ts';

export interface ContentContext {
  changes: ChangeStore;
  releases: ReleaseStore;
  audit: AuditLog;
  logger: Logger;
  /** The built code (dist/) a release is rendered with. */
  codeDir: string;
  now: () => number;
  /** SITE_TIMEZONE: the zone a schedule's time is picked and read in on the staff screens (an IANA name). */
  timeZone: string;
  /** How long a publish waits for every running instance to serve it before it answers. */
  confirmWithinMs: number;
}

/** A refusal the client is shown: its status, `error`, and what else explains it (`missing`, `conflicts`). */
export class ChangeRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface Published {
  release: number;
  live: { on: number; of: number };
}

/** The change set, or a 404 refusal. */
export async function changeSet(context: ContentContext, id: string): Promise<ChangeSet> {
  const set = await context.changes.get(id);
  if (!set) throw new ChangeRefusal(404, 'no such change set');
  return set;
}

/** Refuses (409) a set that is not in review or lacks a current approval for a kind it requires. */
export async function checkApproved(context: ContentContext, set: ChangeSet): Promise<void> {
  if (set.state !== 'in_review')
    throw new ChangeRefusal(
      409,
      `this change set is ${set.state.replace('_', ' ')}: only one in review is published`,
    );
  const documents = await context.changes.documents(set.id);
  const missing = missingApprovals(
    requiredKinds(documents),
    await context.changes.approvals(set.id),
    contentHash(documents),
  );
  if (missing.length > 0)
    throw new ChangeRefusal(409, 'an approval is missing, or was given for content that changed since', {
      missing,
    });
}

/** Publishes the set as `actor` (a member's e-mail). Throws a ChangeRefusal the caller answers with. */
export async function publishChange(context: ContentContext, id: string, actor: string): Promise<Published> {
  const set = await changeSet(context, id);
  // Asked before the lock, so a refusal does not wait for another publish; asked again under it (below).
  await checkApproved(context, set);
  let release;
  // The review lines the set's clinical approval gives, worked out with the rebase under the lock.
  let given: PageReviews = {};
  try {
    release = await publish(context, {
      codeDir: context.codeDir,
      author: actor,
      message: `change set ${set.id}: ${set.title}`,
      documents: async () => {
        // Under the lock: the live release cannot move between this rebase and the build, and the set's content is
        // read once, checked against its approvals (a save since the first check makes them stale; a second click
        // finds it published), and that content is what is built.
        await checkApproved(context, await changeSet(context, id));
        const live = await liveContent(context.releases);
        const documents = await context.changes.documents(id);
        const hash = contentHash(documents);
        const missing = missingApprovals(requiredKinds(documents), await context.changes.approvals(id), hash);
        if (missing.length > 0)
          throw new ChangeRefusal(
            409,
            'an approval is missing, or was given for content that changed since',
            {
              missing,
            },
          );
        const conflicts: Conflict[] = [];
        const rebased = documents.map((document) => {
          const result = rebaseDocument(
            document.baseText,
            live.documents.get(document.path) ?? null,
            document.text,
          );
          conflicts.push(...result.conflicts.map((pointer) => ({ path: document.path, pointer })));
          return { path: document.path, text: result.text };
        });
        if (conflicts.length > 0)
          throw new ChangeRefusal(
            409,
            'another publish changed the same fields since this change set began: decide them in the editor',
            { conflicts },
          );
        // What the set publishes of its own documents, spelled as `npm run check` wants it.
        const misspellings = await setMisspellings(rebased);
        if (misspellings.length > 0)
          throw new ChangeRefusal(409, misspellingSentence(misspellings), { misspellings });
        // The review lines: this set's current clinical approval for the pages whose clinical content it changes.
        const clinical = (await context.changes.approvals(id))
          .filter((approval) => !isStale(approval, hash) && approval.covers.includes('clinical'))
          .at(-1);
        const published = overlay(live.documents, rebased);
        given = approvedReviews(
          live.documents,
          published,
          clinical,
          new Set(documents.map((document) => document.path)),
        );
        return published;
      },
      reviews: () => given,
    });
  } catch (error) {
    const refusal =
      error instanceof ChangeRefusal
        ? error
        : error instanceof ReleaseError
          ? new ChangeRefusal(422, error.message)
          : undefined;
    await context.audit.append({
      actor,
      action: 'change-publish-failed',
      detail: `${id} ${refusal ? refusal.message.split('\n')[0] : 'the store failed'}`.slice(0, 300),
    });
    throw refusal ?? error;
  }
  const moved = await context.changes.setState(id, ['in_review'], 'published', {
    publishedRelease: release.id,
    now: context.now(),
  });
  if (!moved) context.logger.warn({ change: id, release: release.id }, 'a change set was published twice');
  await context.audit.append({ actor, action: 'change-publish', detail: `${id} release ${release.id}` });
  const confirmed = await waitForInstances(context.releases, release.id, {
    withinMs: context.confirmWithinMs,
  });
  return { release: release.id, live: { on: confirmed.confirmed, of: confirmed.running } };
}
