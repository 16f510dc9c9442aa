// The INSERT-only role of docs/DEPLOY.md, its SQL run as written there: the servers work under it (leads, the inbox,
// the audit log and its checkpoint), and it can neither change, delete nor truncate audit rows.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestPostgres, testPool, type TestPostgres } from '../../../tests/helpers/postgres.ts';
import { sampleLead } from '../../../tests/helpers/store-kinds.ts';
import { openPostgresLeadStore } from './pg-lead-store.ts';

let cluster: TestPostgres;
beforeAll(async () => {
  cluster = await startTestPostgres();
});
afterAll(() => cluster.remove());

/** The SQL block after DEPLOY.md's "An INSERT-only role for the audit log". */
function deployRoleSql(): string {
  const deploy = readFileSync(new URL('../../../docs/DEPLOY.md', import.meta.url), 'utf8');
  const section = deploy.slice(deploy.indexOf('**An INSERT-only role for the audit log.**'));
  const sql = /```sql\n([\s\S]*?)```/.exec(section)?.[1];
  if (!sql) throw new Error('no SQL block in the INSERT-only role section of docs/DEPLOY.md');
  return sql;
}

it('runs the servers under the INSERT-only role of DEPLOY.md, which cannot change, delete or truncate audit rows', async () => {
  const key = randomBytes(32);
  // The owner creates the tables, then runs DEPLOY.md's grants.
  await (await openPostgresLeadStore(cluster.url, { key })).close();
  const owner = testPool(cluster.url, 1);
  const appUrl = cluster.url.replace('//app@', '//leads_app:from-your-secret-store@');
  const app = testPool(appUrl, 1);
  try {
    await owner.query(deployRoleSql());
    const store = await openPostgresLeadStore(appUrl, { key });
    try {
      const { id } = await store.insertLead(sampleLead());
      await store.inbox.setStatus(id, 'contacted', 'ann@example.org');
      await store.audit.append({ actor: 'ann@example.org', action: 'view', leadId: id });
      await store.audit.append({ actor: 'ann@example.org', action: 'list', detail: `shown=${id}` });
      expect(await store.audit.verify()).toEqual({ ok: true, rows: 2 });
    } finally {
      await store.close();
    }
    for (const sql of [
      "UPDATE audit SET actor = 'x'",
      'DELETE FROM audit',
      'TRUNCATE audit',
      'TRUNCATE audit_head',
    ])
      await expect(app.query(sql), sql).rejects.toThrow(/permission denied/);
    await expect(app.query('DROP TRIGGER audit_no_change ON audit')).rejects.toThrow(/must be owner/);
  } finally {
    await app.end();
    await owner.end();
  }
});
