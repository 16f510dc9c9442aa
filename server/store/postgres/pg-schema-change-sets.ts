// The change sets' tables (issue #28; contract/change-store.ts), a step of the migrations in pg-schema.ts, kept in a
// file of its own so that file stays readable. PostgreSQL's words.
/** Who is editing which document of a set now: the SQLite step of the same name (schema-change-sets.ts). */
export const CHANGE_PRESENCE_POSTGRES = `CREATE TABLE change_presence (
     change_id text NOT NULL REFERENCES change_sets(id),
     path text NOT NULL,
     email text NOT NULL,
     name text NOT NULL,
     seen_at bigint NOT NULL,
     PRIMARY KEY (change_id, path, email)
   );
   CREATE INDEX change_presence_seen ON change_presence (seen_at);`;

export const CHANGE_SETS_POSTGRES = `CREATE TABLE change_sets (
     id text PRIMARY KEY,
     title text NOT NULL,
     author text NOT NULL,
     state text NOT NULL CHECK (state IN ('draft', 'in_review', 'published')),
     base_release integer NOT NULL,
     requires text NOT NULL DEFAULT '[]',
     published_release integer,
     created_at bigint NOT NULL,
     updated_at bigint NOT NULL,
     schedule_at bigint,
     schedule_by text,
     schedule_state text CHECK (schedule_state IN ('pending', 'running', 'done', 'failed')),
     schedule_error text,
     schedule_lease bigint
   );
   CREATE TABLE change_documents (
     change_id text NOT NULL REFERENCES change_sets(id),
     path text NOT NULL,
     base_text text,
     text text,
     version integer NOT NULL,
     updated_by text NOT NULL,
     updated_at bigint NOT NULL,
     PRIMARY KEY (change_id, path)
   );
   CREATE TABLE change_revisions (
     change_id text NOT NULL REFERENCES change_sets(id),
     path text NOT NULL,
     version integer NOT NULL,
     actor text NOT NULL,
     at bigint NOT NULL,
     text text,
     PRIMARY KEY (change_id, path, version)
   );
   CREATE TABLE change_approvals (
     seq bigserial PRIMARY KEY,
     change_id text NOT NULL REFERENCES change_sets(id),
     actor text NOT NULL,
     at bigint NOT NULL,
     content_hash text NOT NULL,
     covers text NOT NULL,
     name text,
     credential text
   );
   CREATE TABLE change_comments (
     seq bigserial PRIMARY KEY,
     change_id text NOT NULL REFERENCES change_sets(id),
     actor text NOT NULL,
     at bigint NOT NULL,
     path text,
     pointer text,
     text text NOT NULL
   );
   CREATE TABLE preview_links (
     token_hash text PRIMARY KEY,
     change_id text NOT NULL REFERENCES change_sets(id),
     created_at bigint NOT NULL,
     expires_at bigint NOT NULL,
     revoked_at bigint
   );
   CREATE INDEX change_approvals_of ON change_approvals (change_id, seq);
   CREATE INDEX change_comments_of ON change_comments (change_id, seq);
   CREATE INDEX preview_links_of ON preview_links (change_id);
   CREATE INDEX change_sets_due ON change_sets (schedule_at) WHERE schedule_state IN ('pending', 'running');`;
