// SQLite only: after rotate-key no copy of a value sealed with the old key stays in the file's bytes or its WAL (old
// page images of rewritten rows), and with LEADS_ENCRYPTION_KEY no key file is made. The rotation itself is tested on
// both stores in store-contract-rotation.test.ts.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../../../tests/helpers/temp-dir.ts';
import { loadForms } from '../../content.ts';
import { keyId } from '../shared/cipher.ts';
import { keyFileOf } from '../shared/key-file.ts';
import { rotateLeadKey } from './rotation.ts';
import { openLeadStore } from './lead-store.ts';

const forms = loadForms();
const tempDir = useTempDir('rotation-');

const bytesOf = (file: string) =>
  Buffer.concat(
    ['', '-wal']
      .map((suffix) => `${file}${suffix}`)
      .filter(existsSync)
      .map((f) => readFileSync(f)),
  );

describe('rotate-key (SQLite)', () => {
  it('leaves no value sealed with the old key in the bytes of the file or its WAL, and makes no key file', async () => {
    const file = join(tempDir(), 'leads.db');
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const store = openLeadStore(file, { key: oldKey, forms });
    const stored = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        store.insertLead({
          formId: 'consultation',
          source: '/',
          fields: { firstName: `Rotated${n}`, lastName: 'Keyholder', phone: `555010${1000 + n}` },
        }),
      ),
    );
    await store.inbox.addNote(stored[0]!.id, 'Spoke to her brother', 'ann@example.org');
    await store.close();
    expect(bytesOf(file).includes(`v2.${keyId(oldKey)}.`)).toBe(true);
    await rotateLeadKey(file, { key: [newKey, oldKey], forms, actor: 'cli:tester', settleMs: 10 });
    const bytes = bytesOf(file);
    expect(bytes.includes(`v2.${keyId(oldKey)}.`)).toBe(false);
    expect(bytes.includes('"v1.')).toBe(false);
    expect(existsSync(keyFileOf(file))).toBe(false);
  });
});
