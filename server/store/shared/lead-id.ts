// Lead ids: UUID version 7 (RFC 9562), a millisecond timestamp followed by random bits. Ids made one after another sort
// together, so each insert lands on the last page of the SQLite indexes keyed by id instead of on a random page: a
// commit of many leads writes a few pages rather than one per lead. The 74 random bits keep ids unguessable; the time
// they reveal is the time the visitor sent the form, which they know.
import { randomUUID } from 'node:crypto';

/**
 * A version 4 UUID (from Node's pool of random bytes, much cheaper per call than randomBytes) with its first 48 bits
 * replaced by the time and its version digit set to 7; its variant bits are already those of version 7.
 */
export function leadId(now = Date.now()): string {
  const random = randomUUID();
  const time = now.toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15)}`;
}
