// The change sets' tables (issue #28; contract/change-store.ts), a step of the migrations in schema.ts, kept in a
// file of its own so that file stays readable. SQLite's words.
export const CHANGE_SETS_SQLITE = `CREATE TABLE change_sets (
     id TEXT PRIMARY KEY,
     title TEXT NOT NULL,
     author TEXT NOT NULL,
     state TEXT NOT NULL CHECK (state IN ('draft', 'in_review', 'published')),
     base_release INTEGER NOT NULL,
     requires TEXT NOT NULL DEFAULT '[]',
     published_release INTEGER,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     schedule_at INTEGER,
     schedule_by TEXT,
     schedule_state TEXT CHECK (schedule_state IN ('pending', 'running', 'done', 'failed')),
     schedule_error TEXT,
     schedule_lease INTEGER
   ) STRICT;
   CREATE TABLE change_documents (
     change_id TEXT NOT NULL REFERENCES change_sets(id),
     path TEXT NOT NULL,
     base_text TEXT,
     text TEXT,
     version INTEGER NOT NULL,
     updated_by TEXT NOT NULL,
     updated_at INTEGER NOT NULL,
     PRIMARY KEY (change_id, path)
   ) STRICT;
   CREATE TABLE change_revisions (
     change_id TEXT NOT NULL REFERENCES change_sets(id),
     path TEXT NOT NULL,
     version INTEGER NOT NULL,
     actor TEXT NOT NULL,
     at INTEGER NOT NULL,
     text TEXT,
     PRIMARY KEY (change_id, path, version)
   ) STRICT;
   CREATE TABLE change_approvals (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     change_id TEXT NOT NULL REFERENCES change_sets(id),
     actor TEXT NOT NULL,
     at INTEGER NOT NULL,
     content_hash TEXT NOT NULL,
     covers TEXT NOT NULL,
     name TEXT,
     credential TEXT
   ) STRICT;
   CREATE TABLE change_comments (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     change_id TEXT NOT NULL REFERENCES change_sets(id),
     actor TEXT NOT NULL,
     at INTEGER NOT NULL,
     path TEXT,
     pointer TEXT,
     text TEXT NOT NULL
   ) STRICT;
   CREATE TABLE preview_links (
     token_hash TEXT PRIMARY KEY,
     change_id TEXT NOT NULL REFERENCES change_sets(id),
     created_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL,
     revoked_at INTEGER
   ) STRICT;
   CREATE INDEX change_approvals_of ON change_approvals (change_id, seq);
   CREATE INDEX change_comments_of ON change_comments (change_id, seq);
   CREATE INDEX preview_links_of ON preview_links (change_id);
   CREATE INDEX change_sets_due ON change_sets (schedule_at) WHERE schedule_state IN ('pending', 'running');`;

/**
 * Who is editing which document of a set now (the editor's heartbeat): one row per member and document, its time last
 * seen, pruned at every heartbeat. A later step than the change sets (schema.ts).
 */
export const CHANGE_PRESENCE_SQLITE = `CREATE TABLE change_presence (
     change_id TEXT NOT NULL REFERENCES change_sets(id),
     path TEXT NOT NULL,
     email TEXT NOT NULL,
     name TEXT NOT NULL,
     seen_at INTEGER NOT NULL,
     PRIMARY KEY (change_id, path, email)
   ) STRICT;
   CREATE INDEX change_presence_seen ON change_presence (seen_at);`;
