// What a change set needs before it is published, and who may give it (issue #28, item 4): the claim kinds its
// documents touch (content/claims/diff.ts), an approval per kind from someone with the authority for it, bound to a
// SHA-256 of the exact content approved, and never from someone who saved a revision of it (four eyes).
import { createHash } from 'node:crypto';
import { claimChanges } from '../../content/claims/diff.ts';
import type { ClaimKind } from '../../content/claims/keyword.ts';
import { kindOf } from '../../content/kinds.ts';
import type { ChangeApproval, ChangeDocument } from '../store/contract/change-store.ts';
import type { StaffMember } from '../store/contract/staff-store.ts';

const ORDER: readonly ClaimKind[] = ['clinical', 'contact', 'other'];

const parsed = (text: string | null): unknown => (text === null ? undefined : (JSON.parse(text) as unknown));

/** The claim kinds the set's documents touch, against the text each started from, in the order clinical, contact, other. */
export function requiredKinds(
  documents: readonly Pick<ChangeDocument, 'path' | 'baseText' | 'text'>[],
): ClaimKind[] {
  const touched = new Set<ClaimKind>();
  for (const document of documents) {
    const kind = kindOf(document.path);
    if (!kind) continue;
    for (const claim of claimChanges(kind, parsed(document.baseText), parsed(document.text)).kinds)
      touched.add(claim);
  }
  return ORDER.filter((kind) => touched.has(kind));
}

/** SHA-256 (hex) of the set's documents (path and text, sorted by path; a deletion as null): what an approval binds. */
export function contentHash(documents: readonly Pick<ChangeDocument, 'path' | 'text'>[]): string {
  const sorted = [...documents].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return createHash('sha256')
    .update(JSON.stringify(sorted.map(({ path, text }) => [path, text])))
    .digest('hex');
}

/**
 * The kinds a member may approve: `clinical` a reviewer with a clinical credential, `contact` an admin, `other` any
 * reviewer (or admin).
 */
export function authorityOf(member: Pick<StaffMember, 'roles' | 'credential'>): ClaimKind[] {
  const reviewer = member.roles.includes('reviewer');
  const admin = member.roles.includes('admin');
  return ORDER.filter((kind) =>
    kind === 'clinical'
      ? reviewer && member.credential !== null
      : kind === 'contact'
        ? admin
        : reviewer || admin,
  );
}

/** Who must approve a kind, in words for the refusal. */
export const AUTHORITY_WORDS: Readonly<Record<ClaimKind, string>> = {
  clinical: 'a reviewer with a clinical credential',
  contact: 'an admin',
  other: 'a reviewer',
};

/** An approval given for other content than the set's now. */
export const isStale = (approval: Pick<ChangeApproval, 'contentHash'>, hash: string): boolean =>
  approval.contentHash !== hash;

/** The required kinds no current (not stale) approval covers. */
export function missingApprovals(
  requires: readonly ClaimKind[],
  approvals: readonly ChangeApproval[],
  hash: string,
): ClaimKind[] {
  return requires.filter(
    (kind) => !approvals.some((approval) => !isStale(approval, hash) && approval.covers.includes(kind)),
  );
}
