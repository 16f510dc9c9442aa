// The invitations of a database an older version wrote: the step that added their making and cancelling dates them,
// and cancels those of members revoked before it, so an old unused link of a revoked member opens nothing.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../../../tests/helpers/temp-dir.ts';
import { sha256 } from '../shared/staff-records.ts';
import { openLeadDatabase } from './schema.ts';
import { openLeadStore } from './lead-store.ts';

const tempDir = useTempDir('staff-migration-');
/** The schema version before invitations were dated and could be cancelled. */
const BEFORE = 6;
const HOUR = 3_600_000;

describe('staff invitations of an older database (SQLite)', () => {
  it('dates them, and cancels the unused ones of members revoked before', async () => {
    const file = join(tempDir(), 'leads.db');
    mkdirSync(dirname(file), { recursive: true });
    const now = Date.now();
    const old = openLeadDatabase(file, BEFORE);
    const member = old.prepare(
      'INSERT INTO staff (id, email, admin, created_at, revoked_at) VALUES (?, ?, 0, ?, ?)',
    );
    member.run('ana-id', 'ana@example.org', now - 48 * HOUR, now - 2 * HOUR);
    member.run('bob-id', 'bob@example.org', now - 48 * HOUR, null);
    const invite = old.prepare(
      'INSERT INTO invites (token_hash, email, admin, expires_at) VALUES (?, ?, 0, ?)',
    );
    for (const name of ['ana', 'bob', 'cy'])
      invite.run(sha256(`${name}-token`), `${name}@example.org`, now + 23.5 * HOUR);
    old.close();

    const store = openLeadStore(file);
    try {
      expect(await store.staff.inviteRefusal('ana-token', now)).toBe('revoked');
      expect(await store.staff.invites(now)).toEqual([
        // Made 24 hours before it expires, as every invitation then was; a member's lives an hour from then.
        {
          email: 'bob@example.org',
          admin: false,
          // Before roles: a member who was no admin works leads.
          roles: ['admissions'],
          kind: 'add a passkey',
          createdAt: now - HOUR / 2,
          expiresAt: now + HOUR / 2,
        },
        {
          email: 'cy@example.org',
          admin: false,
          // Before roles: a member who was no admin works leads.
          roles: ['admissions'],
          kind: 'new member',
          createdAt: now - HOUR / 2,
          expiresAt: now + 23.5 * HOUR,
        },
      ]);
    } finally {
      await store.close();
    }
  });
});
