// SQLite only: the list answered from its indexes, read from SQLite's plans of the very statements the store runs
// (pageStatement). The inbox itself is tested on both stores in contract-tests/store-contract-inbox.test.ts.
import { afterAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../shared/inbox-query.ts';
import type { InboxPageQuery } from '../contract/inbox.ts';
import { pageStatement, type SearchedTerm } from './inbox-store.ts';
import { openLeadDatabase } from './schema.ts';

describe('inbox store (SQLite)', () => {
  const db = openLeadDatabase(':memory:');
  afterAll(() => db.close());
  const plan = (query: Omit<InboxPageQuery, 'limit'>, terms: SearchedTerm[] = []) => {
    const { sql, params } = pageStatement({ ...query, limit: 50 }, terms, 51);
    return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[])
      .map((row) => row.detail)
      .join('; ');
  };
  const hashes = JSON.stringify(['a1', 'b2']);

  it('answers the first page, a status and a form from their indexes, never sorting the table', () => {
    for (const [query, index] of [
      [{}, 'leads_newest'],
      [{ status: 'new' }, 'leads_by_status'],
      [{ formId: 'insurance-verification' }, 'leads_by_form'],
      [{ before: encodeCursor({ created_at: '2026-01-09T10:00:00.000Z', id: 'x' }) }, 'leads_newest'],
    ] as const) {
      const detail = plan(query);
      expect(detail, JSON.stringify(query)).toContain(index);
      expect(detail, JSON.stringify(query)).not.toContain('USE TEMP B-TREE FOR ORDER BY');
    }
  });

  it('finds a rare search term through its keyed hashes first, and checks a common one lead by lead', () => {
    expect(plan({}, [{ hashes, common: false }])).toContain('SEARCH lead_terms USING PRIMARY KEY (term=?)');
    const common = plan({}, [{ hashes, common: true }]);
    expect(common).toContain('SCAN leads USING INDEX leads_newest');
    expect(common).toContain('SEARCH lead_terms EXISTS USING COVERING INDEX lead_terms_of_lead');
  });
});
