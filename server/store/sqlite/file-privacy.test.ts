// Who can read the lead database's files, and what a purge leaves in them: the file, its WAL and shared memory, and
// its backups readable by their owner alone (0600, in a folder the server creates 0700, whatever the umask lets), and
// no sealed value of a purged lead left in the WAL.
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../../../tests/helpers/temp-dir.ts';
import { loadForms } from '../../content.ts';
import { backupLeadDatabase } from './backup.ts';
import { openLeadStore } from './lead-store.ts';

const forms = loadForms();
const tempDir = useTempDir('lead-privacy-');
const modeOf = (file: string) => statSync(file).mode & 0o777;

const lead = (n: number) => ({
  formId: 'consultation',
  source: `/treatment/purged-${n}`,
  fields: {
    firstName: `Purged${n}`,
    lastName: 'Person',
    phone: `555010${1000 + n}`,
    email: `p${n}@example.org`,
  },
});

describe('the lead database files', () => {
  it('are created readable by their owner alone, the folder too, and so are backups', async () => {
    const folder = join(tempDir(), 'data', 'leads');
    const file = join(folder, 'leads.db');
    const store = openLeadStore(file, { forms });
    await store.insertLead(lead(1));
    expect(modeOf(join(tempDir(), 'data'))).toBe(0o700);
    expect(modeOf(folder)).toBe(0o700);
    for (const name of [file, `${file}-wal`, `${file}-shm`]) {
      expect(existsSync(name), name).toBe(true);
      expect(modeOf(name), name).toBe(0o600);
    }
    const backup = join(tempDir(), 'backups', 'leads-copy.db');
    expect((await backupLeadDatabase(file, backup)).leads).toBe(1);
    expect(modeOf(backup)).toBe(0o600);
    expect(modeOf(join(tempDir(), 'backups'))).toBe(0o700);
    await store.close();
  });

  it('tightens a database file an older version left readable by everyone, and leaves the folder as it is', async () => {
    const folder = join(tempDir(), 'shared');
    mkdirSync(folder, { mode: 0o755 });
    chmodSync(folder, 0o755);
    const file = join(folder, 'leads.db');
    writeFileSync(file, '');
    chmodSync(file, 0o644);
    const store = openLeadStore(file, { forms });
    await store.insertLead(lead(2));
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(`${file}-wal`)).toBe(0o600);
    expect(modeOf(folder)).toBe(0o755);
    await store.close();
  });
});

describe('a purge', () => {
  it('leaves no sealed value of the purged leads in the WAL', async () => {
    const file = join(tempDir(), 'leads.db');
    const store = openLeadStore(file, { forms });
    for (let n = 0; n < 5; n += 1) await store.insertLead(lead(n));
    // What the database holds of them: their sealed values and sealed source pages.
    const reader = new Database(file, { readonly: true });
    const rows = reader.prepare('SELECT source, sealed FROM leads').all() as {
      source: string;
      sealed: string;
    }[];
    reader.close();
    const sealed = rows.flatMap((row) => [row.source, ...Object.values(JSON.parse(row.sealed) as object)]);
    expect(sealed).toHaveLength(25);
    const inWal = () => {
      const wal = existsSync(`${file}-wal`) ? readFileSync(`${file}-wal`) : Buffer.alloc(0);
      return sealed.filter((value: string) => wal.includes(value));
    };
    expect(inWal().length).toBeGreaterThan(0);

    expect(await store.purgeOlderThan(new Date(Date.now() + 60_000).toISOString())).toBe(5);
    // While the server runs on, not only once it closes.
    expect(inWal()).toEqual([]);
    const bytes = readFileSync(file);
    expect(sealed.filter((value: string) => bytes.includes(value))).toEqual([]);
    await store.close();
  });
});
