// SQLite only: the list answered from its indexes (SQLite's query plans). The inbox itself is tested on both stores in
// store-contract-inbox.test.ts.
import { describe, expect, it } from 'vitest';
import { openLeadDatabase } from './schema.ts';

describe('inbox store (SQLite)', () => {
  it('answers the list from its indexes', async () => {
    const db = openLeadDatabase(':memory:');
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
        .map((row) => row.detail)
        .join('; ');
    expect(plan('SELECT * FROM leads ORDER BY created_at DESC, id DESC LIMIT 50')).toMatch(/leads_newest/);
    expect(
      plan("SELECT * FROM leads WHERE status = 'new' ORDER BY created_at DESC, id DESC LIMIT 50"),
    ).toMatch(/leads_by_status/);
    expect(
      plan("SELECT * FROM leads WHERE form_id = 'f' ORDER BY created_at DESC, id DESC LIMIT 50"),
    ).toMatch(/leads_by_form/);
    db.close();
  });
});
