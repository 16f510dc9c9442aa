import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { auditHash, createSqliteAuditLog } from './audit-log.ts';
import { openLeadDatabase } from './lead-db.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const dbFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'audit-'));
  dirs.push(dir);
  return join(dir, 'leads.db');
};

async function logOfFive(file: string) {
  const db = openLeadDatabase(file);
  const log = createSqliteAuditLog(db);
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
  return { db, log };
}

describe('audit log', () => {
  it('chains each row to the one before it, and pages newest first', async () => {
    const { db, log } = await logOfFive(dbFile());
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
    expect(newest?.hash).toBe(auditHash(newest!));
    expect(second.rows.at(-1)?.prevHash).toBe('');
    expect(await log.verify()).toEqual({ ok: true, rows: 5 });
    db.close();
  });

  it('refuses to update or delete a row in the database itself', async () => {
    const { db } = await logOfFive(dbFile());
    expect(() => db.prepare("UPDATE audit SET actor = 'x' WHERE seq = 2").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM audit WHERE seq = 2').run()).toThrow(/append-only/);
    db.close();
  });

  it('finds an edited row, even one whose own hash was recomputed', async () => {
    const file = dbFile();
    const { db, log } = await logOfFive(file);
    db.exec('DROP TRIGGER audit_no_update');
    db.prepare("UPDATE audit SET detail = 'new -> closed' WHERE seq = 4").run();
    expect(await log.verify()).toMatchObject({ ok: false, seq: 4 });
    const [row] = (await log.page({ before: 5, limit: 1 })).rows;
    db.prepare('UPDATE audit SET hash = ? WHERE seq = 4').run(auditHash(row!));
    expect(await log.verify()).toMatchObject({ ok: false, seq: 5 });
    db.close();
  });

  it('finds a deleted row, first or in the middle', async () => {
    const file = dbFile();
    const { db, log } = await logOfFive(file);
    db.exec('DROP TRIGGER audit_no_delete');
    db.prepare('DELETE FROM audit WHERE seq = 3').run();
    expect(await log.verify()).toMatchObject({ ok: false, seq: 3, reason: expect.stringMatching(/missing/) });
    db.prepare('DELETE FROM audit WHERE seq = 1').run();
    expect(await log.verify()).toMatchObject({ ok: false, seq: 1 });
    db.close();
  });

  it('keeps one chain when two connections (the server and the CLI) append at once', async () => {
    const file = dbFile();
    const { db, log } = await logOfFive(file);
    const other = openLeadDatabase(file);
    const otherLog = createSqliteAuditLog(other);
    await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        (n % 2 ? log : otherLog).append({ actor: `a${n}@example.org`, action: 'view', leadId: `lead-${n}` }),
      ),
    );
    expect(await log.verify()).toEqual({ ok: true, rows: 25 });
    other.close();
    db.close();
    const reopened = new Database(file, { readonly: true });
    expect(reopened.prepare('SELECT COUNT(*) FROM audit').pluck().get()).toBe(25);
    reopened.close();
  });
});
