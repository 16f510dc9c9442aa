// `npm run leads -- rotate-key`: every value of the lead database sealed again under a new key, with no downtime. The
// new key goes first into the key file (the old one kept second) and its id into meta current_key_id, which a running
// server checks before sealing, so within a second it seals with the new key too; meanwhile this process reseals the
// rest in short transactions, and only once nothing sealed with an old key is left, nor can still arrive, are the old
// keys dropped and the file rewritten without them. The steps are the same for both stores; each store gives its own
// statements (sqlite/rotation.ts, postgres/pg-rotation.ts).
import { randomBytes } from 'node:crypto';
import type { FormDefinition } from '../../../generated/content-types.ts';
import { ANSWER_WITHIN_MS } from '../../forms/form-submission.ts';
import type { AuditLog } from '../contract/audit-log.ts';
import type { KeySource, UnlockOptions } from '../contract/keys.ts';
import { KEY_BYTES } from './cipher.ts';
import { KeyError, readKeyFile, writeKeyFile } from './key-file.ts';
import { createKeyring, CURRENT_CHECK_MS, ringKey, type Keyring } from './keyring.ts';
import { createSealer, RESEAL_BATCH, termsFor, type Sealer, type TermsOf } from './sealing.ts';

export interface RotationOptions extends Pick<UnlockOptions, 'key' | 'keyFile'> {
  forms?: ReadonlyMap<string, FormDefinition>;
  /** Who rotates, for the audit log: `cli:<os user>`. */
  actor: string;
  /**
   * How long a lead sealed with the old key may still be on its way to the database: a server notices the new key
   * within CURRENT_CHECK_MS, and a lead it sealed just before is written within its visitor's answer deadline, or never.
   */
  settleMs?: number;
  batch?: number;
  /** AUDIT_KEY, as the servers have it: the rotation's own audit row is signed as theirs are. */
  auditKey?: readonly Buffer[];
}

export interface RotationResult {
  keyId: string;
  /** The keys no value is sealed with any more. */
  retired: string[];
  /** Leads and notes sealed again. */
  resealed: number;
  /** The key file now holding the new key alone; undefined when the keys come from LEADS_ENCRYPTION_KEY. */
  keyFile: string | undefined;
}

/** One lead database as a rotation sees it, unlocked with the keys the rotation was given. */
export interface RotationTarget {
  keyring: Keyring;
  keySource: KeySource;
  /** Writes meta current_key_id, which running servers follow. */
  setCurrentKey(id: string): Promise<void>;
  /** Seals again under the sealer's current key every lead and note holding a value matching no `pattern`. */
  reseal(sealer: Sealer, termsOf: TermsOf, pattern: string, batch: number): Promise<number>;
  /** Values, in leads and notes, not matching `pattern`. */
  stale(pattern: string): Promise<number>;
  /** Once the old keys are dropped: whatever the store can do so no old copy of a value stays behind. */
  scrub(): Promise<void>;
  /** The audit log, its rows signed by `keyring`'s current key (or AUDIT_KEY): the new key, which the servers keep. */
  audit(keyring: Keyring): AuditLog;
}

/** A server that follows the rotation leaves nothing after the second pass; more means one that does not. */
const MAX_PASSES = 5;

/** The rotation itself, on either store. */
export async function rotateKeys(target: RotationTarget, options: RotationOptions): Promise<RotationResult> {
  const { batch = RESEAL_BATCH, settleMs = ANSWER_WITHIN_MS + CURRENT_CHECK_MS } = options;
  const { keyring, keySource } = target;
  const old = keyring.all();
  const keyFile = keySource.kind === 'file' || keySource.kind === 'created' ? keySource.file : undefined;
  // From a key file: a new key, written first and the others kept, before any value is sealed with it. From the
  // variable: its first key, which the operator put there.
  const fresh = keyFile === undefined ? old[0]! : ringKey(randomBytes(KEY_BYTES));
  if (keyFile !== undefined) writeKeyFile(keyFile, [fresh.key, ...readKeyFile(keyFile).keys]);
  await target.setCurrentKey(fresh.id);
  const legacy = keyring.legacy();
  const freshRing = createKeyring([fresh.key, ...old.map((entry) => entry.key)], { originalId: legacy?.id });
  const sealer = createSealer(freshRing);
  const termsOf = termsFor(sealer, options.forms);
  const pattern = `v2.${fresh.id}.%`;
  let resealed = 0;
  for (let pass = 1; ; pass += 1) {
    if (pass > MAX_PASSES)
      throw new KeyError(
        `Values are still being sealed with another key than ${fresh.id} after ${MAX_PASSES} passes: a server ` +
          'is running without the new key. Restart it with the new key first in its key ring ' +
          '(LEADS_ENCRYPTION_KEY=new,old, or the key file it reads), then run rotate-key again.',
      );
    resealed += await target.reseal(sealer, termsOf, pattern, batch);
    // A server that sealed a lead with the old key just before it noticed the new one may still be writing it.
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    if ((await target.stale(pattern)) === 0) break;
  }
  if (keyFile !== undefined) writeKeyFile(keyFile, [fresh.key]);
  await target.scrub();
  const retired = old.map((entry) => entry.id).filter((id) => id !== fresh.id);
  await target.audit(freshRing).append({
    actor: options.actor,
    action: 'rotate-key',
    detail: `key=${fresh.id} retired=${retired.join(',') || 'none'} resealed=${resealed}`,
  });
  return { keyId: fresh.id, retired, resealed, keyFile };
}
