// A lead database as version 1 wrote it: one lead stored in clear (Jane Quist, member ID M-1) whose alert was
// delivered. What the tests of sealing such files start from, on SQLite and on the way into PostgreSQL.
import { openLeadDatabase } from '../../server/store/sqlite/schema.ts';

export const LEGACY_LEAD = { id: 'old-1', data: { fullName: 'Jane Quist', memberId: 'M-1' } } as const;

/** Writes `file` (its folder must exist) with the schema of version 1 and LEGACY_LEAD in it. */
export function writeVersionOneFile(file: string): void {
  const v1 = openLeadDatabase(file, 1);
  v1.prepare(
    "INSERT INTO leads VALUES (?, 'insurance-verification', '2025-01-01T00:00:00.000Z', '/', ?)",
  ).run(LEGACY_LEAD.id, JSON.stringify(LEGACY_LEAD.data));
  v1.prepare("INSERT INTO alerts VALUES (?, 'delivered', 1, 0, NULL, '2025-01-01T00:00:01.000Z')").run(
    LEGACY_LEAD.id,
  );
  v1.close();
}
