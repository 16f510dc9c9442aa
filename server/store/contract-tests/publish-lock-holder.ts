// A publisher that takes the publish lock and never gives it back, for store-contract-releases.test.ts to kill with
// SIGKILL: `node --import tsx publish-lock-holder.ts <sqlite|postgres> <file or URL>`. It prints "held" once it holds
// the lock, then waits to be killed.
import { createPostgresReleaseStore } from '../postgres/pg-release-store.ts';
import { createPool } from '../postgres/pg-schema.ts';
import { createSqliteReleaseStore } from '../sqlite/release-store.ts';
import { openLeadDatabase } from '../sqlite/schema.ts';

const [kind, location] = process.argv.slice(2);
if (!location || (kind !== 'sqlite' && kind !== 'postgres'))
  throw new Error('usage: publish-lock-holder.ts <sqlite|postgres> <file or URL>');
const releases =
  kind === 'sqlite'
    ? createSqliteReleaseStore(openLeadDatabase(location))
    : createPostgresReleaseStore(createPool(location, { max: 1 }), location);
await releases.withPublishLock(async () => {
  process.stdout.write('held\n');
  // Holds it until killed: a publish that never ends.
  await new Promise(() => setInterval(() => undefined, 60_000));
});
