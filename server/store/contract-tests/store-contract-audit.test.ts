// The audit chain's and retention's contract, each test run against SQLite and a real PostgreSQL
// (tests/helpers/store-kinds.ts). Two instances appending to one chain at once: store-contract.test.ts.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { storeKinds, type StoreKind } from '../../../tests/helpers/store-kinds.ts';
import { auditHash } from '../shared/audit-chain.ts';
import { retentionCutoff } from '../shared/retention.ts';

async function logOfFive(kind: StoreKind) {
  const opened = await kind.open();
  const log = opened.store.audit;
  await log.append({ actor: 'ann@example.org', action: 'sign-in' });
  await log.append({ actor: 'ann@example.org', action: 'list', detail: 'status=new' });
  await log.append({ actor: 'ann@example.org', action: 'view', leadId: 'lead-1' });
  await log.append({
    actor: 'ann@example.org',
    action: 'status',
    leadId: 'lead-1',
    detail: 'new -> contacted',
  });
  await log.append({ actor: 'cli:root', action: 'cli-read', detail: 'list count=1' });
  return { ...opened, log };
}

const lead = (fullName: string, idempotencyKey: string) => ({
  formId: 'insurance-verification',
  source: '/insurance',
  fields: { fullName, phone: '(555) 010-4477', memberId: 'XZH-1' },
  idempotencyKey,
});

describe.each(storeKinds())('the $name audit log', (kind) => {
  // What a person with access to the database would run to take the guard off: the triggers each store made.
  const dropGuards =
    kind.name === 'sqlite'
      ? ['DROP TRIGGER audit_no_update', 'DROP TRIGGER audit_no_delete']
      : ['DROP TRIGGER audit_no_change ON audit'];

  it('chains each row to the one before it, and pages newest first', async () => {
    const { log } = await logOfFive(kind);
    const first = await log.page({ limit: 2 });
    expect(first.rows.map((row) => row.seq)).toEqual([5, 4]);
    expect(first.next).toBe(4);
    const second = await log.page({ before: 4, limit: 10 });
    expect(second.rows.map((row) => row.seq)).toEqual([3, 2, 1]);
    expect(second.next).toBeNull();
    const [newest] = first.rows;
    expect(newest).toMatchObject({
      actor: 'cli:root',
      action: 'cli-read',
      leadId: null,
      detail: 'list count=1',
    });
    expect(newest?.prevHash).toBe(first.rows[1]?.hash);
    // Signed (an HMAC under the audit key), not a hash anyone could recompute.
    expect(newest?.hash).toMatch(/^2\.lead-[0-9a-f]{16}\.[0-9a-f]{64}\.[0-9a-f]{64}$/);
    expect(newest?.hash).not.toBe(auditHash(newest!));
    expect(second.rows.at(-1)?.prevHash).toBe('');
    expect(await log.verify()).toEqual({ ok: true, rows: 5 });
  });

  it('refuses to update or delete a row in the database itself', async () => {
    const { sql } = await logOfFive(kind);
    await expect(sql("UPDATE audit SET actor = 'x' WHERE seq = 2")).rejects.toThrow(/append-only/);
    await expect(sql('DELETE FROM audit WHERE seq = 2')).rejects.toThrow(/append-only/);
    if (kind.name === 'postgres') {
      // TRUNCATE skips row triggers; a statement trigger refuses it, and the checkpoint's table alike.
      await expect(sql('TRUNCATE audit')).rejects.toThrow(/append-only/);
      await expect(sql('TRUNCATE audit_head')).rejects.toThrow(/append-only/);
      await expect(sql('DELETE FROM audit_head')).rejects.toThrow(/append-only/);
    }
  });

  it('finds an edited row, even one whose own hash was recomputed', async () => {
    const { log, sql } = await logOfFive(kind);
    for (const drop of dropGuards) await sql(drop);
    await sql("UPDATE audit SET detail = 'new -> closed' WHERE seq = 4");
    expect(await log.verify()).toMatchObject({ ok: false, seq: 4 });
    const [row] = (await log.page({ before: 5, limit: 1 })).rows;
    // A hash recomputed as anyone can (plain SHA-256) is no longer accepted for a signed row.
    await sql('UPDATE audit SET hash = $1 WHERE seq = 4', [auditHash(row!)]);
    expect(await log.verify()).toMatchObject({ ok: false, seq: 4 });
  });

  it('finds a deleted row, first or in the middle', async () => {
    const { log, sql } = await logOfFive(kind);
    for (const drop of dropGuards) await sql(drop);
    await sql('DELETE FROM audit WHERE seq = 3');
    expect(await log.verify()).toMatchObject({ ok: false, seq: 3, reason: expect.stringMatching(/missing/) });
    await sql('DELETE FROM audit WHERE seq = 1');
    expect(await log.verify()).toMatchObject({ ok: false, seq: 1 });
  });

  it('finds a cut tail: the last rows deleted, though the chain that is left holds', async () => {
    const { log, sql } = await logOfFive(kind);
    for (const drop of dropGuards) await sql(drop);
    await sql('DELETE FROM audit WHERE seq >= 4');
    expect(await log.verify()).toEqual({
      ok: false,
      seq: 4,
      reason: 'rows 4 to 5 are missing: the log ends at row 3, its checkpoint at row 5',
    });
    // An act appended after the cut does not hide it.
    await log.append({ actor: 'ann@example.org', action: 'list' });
    await log.append({ actor: 'ann@example.org', action: 'list' });
    expect(await log.verify()).toEqual({
      ok: false,
      seq: 4,
      reason: 'rows 4 to 5 are missing: they were gone when row 4 was appended',
    });
  });

  it('finds a rewritten last row, its hash recomputed the way the code does', async () => {
    const { log, sql } = await logOfFive(kind);
    for (const drop of dropGuards) await sql(drop);
    const [last] = (await log.page({ limit: 1 })).rows;
    const forged = { ...last!, detail: 'list count=0' };
    const [, keyId] = last!.hash.split('.');
    const sha = createHash('sha256')
      .update(
        JSON.stringify([
          forged.prevHash,
          5,
          forged.at,
          forged.actor,
          forged.action,
          null,
          forged.detail,
          keyId,
        ]),
      )
      .digest('hex');
    const hash = `2.${keyId}.${sha}.${'0'.repeat(64)}`;
    await sql('UPDATE audit SET detail = $1, hash = $2 WHERE seq = 5', [forged.detail, hash]);
    expect(await log.verify()).toMatchObject({ ok: false, seq: 5, reason: expect.stringMatching(/altered/) });
    // Signed as v1, as rows were before the chain was signed: refused after signed rows.
    await sql('UPDATE audit SET hash = $1 WHERE seq = 5', [auditHash(forged)]);
    expect(await log.verify()).toMatchObject({
      ok: false,
      seq: 5,
      reason: expect.stringMatching(/not signed/),
    });
  });

  it('keeps verifying rows written before the chain was signed, and signs the rows after them', async () => {
    const { store, sql } = await kind.open();
    let prevHash = '';
    for (const seq of [1, 2]) {
      const row = {
        prevHash,
        seq,
        at: new Date().toISOString(),
        actor: 'ann@example.org',
        action: 'view' as const,
        leadId: `lead-${seq}`,
        detail: null,
      };
      const hash = auditHash(row);
      await sql(
        'INSERT INTO audit (seq, at, actor, action, lead_id, detail, prev_hash, hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
        [seq, row.at, row.actor, row.action, row.leadId, row.detail, prevHash, hash],
      );
      prevHash = hash;
    }
    expect(await store.audit.verify()).toEqual({ ok: true, rows: 2 });
    await store.audit.append({ actor: 'ann@example.org', action: 'list' });
    expect(await store.audit.verify()).toEqual({ ok: true, rows: 3 });
  });

  it('still verifies after the lead key is rotated and the old key dropped', async () => {
    const { store, again, rotate } = await kind.open(undefined, { keyFile: true });
    await store.audit.append({ actor: 'ann@example.org', action: 'list' });
    await store.audit.append({ actor: 'ann@example.org', action: 'view', leadId: 'lead-1' });
    const { retired } = await rotate({ actor: 'cli:root', settleMs: 0 });
    expect(retired).toHaveLength(1);
    // A server started after the rotation holds the new key alone.
    const fresh = await again();
    expect(await fresh.audit.verify()).toEqual({ ok: true, rows: 3 });
  });

  it('purges the leads older than the cutoff with their alerts, keys, terms, status changes and notes, and only those', async () => {
    const { store, sql, raw } = await kind.open();
    const old = await Promise.all(
      [lead('Old One', 'k1'), lead('Old Two', 'k2')].map((l) => store.insertLead(l)),
    );
    const kept = await store.insertLead(lead('Kept Three', 'k3'));
    for (const { id } of [...old, kept]) {
      await store.inbox.setStatus(id, 'contacted', 'ann@example.org');
      await store.inbox.addNote(id, 'Left a message', 'ann@example.org');
    }
    const oldIds = old.map(({ id }) => id);
    for (const id of oldIds)
      await sql('UPDATE leads SET created_at = $1 WHERE id = $2', [retentionCutoff(366), id]);
    await sql('UPDATE leads SET created_at = $1 WHERE id = $2', [retentionCutoff(364), kept.id]);
    const count = async (table: string, ids: string[], column = 'lead_id') =>
      (await raw(`SELECT ${column} AS id FROM ${table}`)).filter((row) => ids.includes(String(row.id)))
        .length;
    const tables = ['alerts', 'idempotency_keys', 'lead_terms', 'lead_events'];
    for (const table of tables) expect(await count(table, oldIds), table).toBeGreaterThan(0);

    expect(await store.purgeOlderThan(retentionCutoff(365))).toBe(2);

    expect(await count('leads', oldIds, 'id')).toBe(0);
    for (const table of tables) expect(await count(table, oldIds), table).toBe(0);
    expect((await store.getLead(kept.id))?.data.fullName).toBe('Kept Three');
    for (const table of tables) expect(await count(table, [kept.id]), table).toBeGreaterThan(0);
    const [audited] = (await store.audit.page({ limit: 1 })).rows;
    expect(audited).toMatchObject({ actor: 'server', action: 'purge', detail: 'count=2', leadId: null });
    expect(await store.purgeOlderThan(retentionCutoff(365))).toBe(0);
    expect((await store.audit.page({ limit: 10 })).rows).toHaveLength(1);
  });

  it('purges in batches until none older is left', async () => {
    const { store } = await kind.open();
    // A hundred at a time, as a busy server would send them.
    for (let n = 0; n < 1203; n += 100)
      await Promise.all(
        Array.from({ length: Math.min(100, 1203 - n) }, (_, m) =>
          store.insertLead(lead(`P ${n + m}`, `key-${n + m}`)),
        ),
      );
    expect(await store.purgeOlderThan(new Date(Date.now() + 1000).toISOString())).toBe(1203);
    expect(await store.listLeads()).toEqual([]);
  });
});
