// The content screens' words for staff: who a change needs, its state, where it is live, why a publish was refused.
// Plain sentences, never the API's keywords (`clinical`, `in_review`) or JSON pointers.
import { fieldLabel } from '../../content/labels.ts';
import type { ChangeState, ChangeView, ClaimKind, PublishRefused } from '../../contracts/content-api.ts';

/** Who must approve a change of each kind (the same rule as server/content-staff/change-review.ts). */
export const WHO_APPROVES: Readonly<Record<ClaimKind, string>> = {
  clinical: 'a clinical reviewer',
  contact: 'an admin',
  other: 'any reviewer',
};
/** What a change of each kind touches, for a reader who does not know the tags. */
export const KIND_WORDS: Readonly<Record<ClaimKind, string>> = {
  clinical: 'medical claims',
  contact: 'contact details',
  other: 'other content',
};

export const STATE_WORDS: Readonly<Record<ChangeState, string>> = {
  draft: 'Draft',
  in_review: 'In review',
  published: 'Published',
};

/** "a clinical reviewer and an admin"; "nobody yet" for a set that changes nothing. */
export function listWords(items: readonly string[]): string {
  if (items.length === 0) return '';
  if (items.length === 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

/** "Needs approval from a clinical reviewer (medical claims) and any reviewer (other content)." */
export function requiresSentence(requires: readonly ClaimKind[]): string {
  if (requires.length === 0) return 'Changes nothing yet: nothing to approve.';
  return `Needs approval from ${listWords(requires.map((kind) => `${WHO_APPROVES[kind]} (${KIND_WORDS[kind]})`))}.`;
}

/** "Still missing: a clinical reviewer." or undefined when every approval it needs is current. */
export function missingSentence(missing: readonly ClaimKind[]): string | undefined {
  return missing.length === 0
    ? undefined
    : `Still missing an approval from ${listWords(missing.map((kind) => WHO_APPROVES[kind]))}.`;
}

export const liveSentence = (live: { on: number; of: number }): string => `Live on ${live.on} of ${live.of}`;

/** Why a publish was refused (the API's 409), in sentences: the approvals missing or stale, the fields changed live. */
export function refusalLines(refused: Partial<PublishRefused>, approvals: ChangeView['approvals']): string[] {
  const lines: string[] = [];
  for (const kind of refused.missing ?? []) {
    const stale = approvals.filter((approval) => approval.stale && approval.covers.includes(kind));
    lines.push(
      stale.length > 0
        ? `The approval of ${KIND_WORDS[kind]} by ${listWords(stale.map((a) => a.by))} is stale: the content changed after it. ${capital(WHO_APPROVES[kind])} must approve again.`
        : `No approval yet from ${WHO_APPROVES[kind]} (${KIND_WORDS[kind]}).`,
    );
  }
  for (const conflict of refused.conflicts ?? [])
    lines.push(
      `${conflict.path}: a field was changed on the live site too (${fieldName(conflict.pointer)}).`,
    );
  if (lines.length === 0 && refused.error) lines.push(`${capital(refused.error)}.`);
  return lines;
}

const capital = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** A JSON pointer as words ("/blocks/2/items/0/answer" → "block 3, item 1, answer"), when no label is known. */
export function fieldName(pointer: string): string {
  const parts = pointer.split('/').slice(1);
  const words: string[] = [];
  for (let index = 0; index < parts.length; index += 1) {
    const part = (parts[index] ?? '').replaceAll('~1', '/').replaceAll('~0', '~');
    const next = parts[index + 1];
    if (next !== undefined && /^\d+$/.test(next)) {
      words.push(`${part.replace(/s$/, '')} ${Number(next) + 1}`);
      index += 1;
    } else words.push(fieldLabel(part).toLowerCase());
  }
  return words.join(', ') || 'the whole document';
}
