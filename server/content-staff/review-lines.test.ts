import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../content/paths.ts';
import type { ChangeApproval } from '../store/contract/change-store.ts';
import { approvedReviews } from './review-lines.ts';

const FILE = 'pages/treatment/fentanyl-addiction.json';
const OTHER = 'pages/services/medical-detox.json';
const text = readFileSync(join(ROOT, FILE), 'utf8');
type Page = { blocks: { items?: { duration?: string }[] }[]; title: string };
const edited = (edit: (page: Page) => void) => {
  const page = JSON.parse(text) as Page;
  edit(page);
  return `${JSON.stringify(page, null, 2)}\n`;
};
const clinical = edited((page) => void (page.blocks[4]!.items![0]!.duration = '10-14 days'));
const retitled = edited((page) => void (page.title = 'Fentanyl treatment'));
const approval: ChangeApproval = {
  by: 'maya@example.org',
  at: Date.parse('2026-11-28T10:00:00Z'),
  contentHash: 'x',
  covers: ['clinical'],
  name: 'Maya Chen',
  credential: 'MD, Addiction Medicine',
};
const live = new Map([[FILE, text]]);

describe('review lines a change set gives', () => {
  it("gives a page whose clinical content the set changed its clinical approval's reviewer and day", () => {
    expect(approvedReviews(live, [{ path: FILE, text: clinical }], approval, new Set([FILE]))).toEqual({
      '/treatment/fentanyl-addiction': {
        name: 'Maya Chen',
        credential: 'MD, Addiction Medicine',
        date: '2026-11-28',
      },
    });
  });

  it('gives nothing for a change outside the clinical fields, a page outside the set, or an approval without a name', () => {
    expect(approvedReviews(live, [{ path: FILE, text: retitled }], approval, new Set([FILE]))).toEqual({});
    expect(approvedReviews(live, [{ path: FILE, text: clinical }], approval, new Set([OTHER]))).toEqual({});
    expect(approvedReviews(live, [{ path: FILE, text: clinical }], undefined, new Set([FILE]))).toEqual({});
    expect(
      approvedReviews(live, [{ path: FILE, text: clinical }], { ...approval, name: null }, new Set([FILE])),
    ).toEqual({});
  });
});
