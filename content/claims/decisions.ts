// The claim-tag decision record (docs/decisions/2026-11-28-claim-tags.md) against the schemas: every field of
// every block and document schema has a row there, with the tag its schema gives it. Node-only.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOCUMENT_KINDS } from '../kinds.ts';
import { ROOT } from '../paths.ts';
import { SCHEMA_FILES, blockSchemaFile, blockTypes, schemaId } from '../schemas.ts';
import { resolveUrl } from '../validate/schema-walk.ts';
import { schemaFields, type SchemaField } from './fields.ts';

export const DECISION_RECORD = 'docs/decisions/2026-11-28-claim-tags.md';

/** A section of the record: a block type or a document kind, and its rows (field path to tag, 'none' for none). */
export type RecordSections = Map<string, Map<string, string>>;

/** The record's tables: under each '### `name`' heading, rows '| `path` | tag | why |'. */
export function parseRecord(markdown: string): RecordSections {
  const sections: RecordSections = new Map();
  let current: Map<string, string> | undefined;
  for (const line of markdown.split('\n')) {
    const heading = /^### `([^`]+)`/.exec(line);
    if (heading?.[1]) sections.set(heading[1], (current = new Map()));
    const row = /^\| `([^`]+)` \| ([a-z]+) \|/.exec(line);
    if (row?.[1] && row[2] && current) current.set(row[1], row[2]);
  }
  return sections;
}

/** Every field of each block type and document kind, with the tag its schema gives it. */
export function schemaSections(): Map<string, SchemaField[]> {
  const fieldsOf = (file: string, skip?: Set<string>) => {
    const root = resolveUrl(`${schemaId(file)}#`);
    if (!root) throw new Error(`${file} is not a registered schema`);
    return schemaFields(root, skip);
  };
  // `$schema` names the schema for editors; a page's `blocks` are decided per block type.
  const documentSkip = new Set(['$schema', 'blocks']);
  return new Map([
    ...blockTypes().map((t) => [t, fieldsOf(blockSchemaFile(t))] as const),
    ...DOCUMENT_KINDS.map((k) => [k, fieldsOf(SCHEMA_FILES[k], documentSkip)] as const),
  ]);
}

const where = (section: string) =>
  DOCUMENT_KINDS.some((k) => k === section)
    ? `schemas/${section}.schema.json`
    : `blocks/${section}/schema.json`;

/** What is undecided, stale or contradicted, each as a message that says where to decide. */
export function decisionProblems(record: RecordSections, schemas: Map<string, SchemaField[]>): string[] {
  const problems: string[] = [];
  const decide = `add a row to its table in ${DECISION_RECORD} (tag clinical, contact or none, and why), and unless it is none the same "claim" on the field in its schema`;
  for (const [section, fields] of schemas) {
    const rows = record.get(section);
    if (!rows) {
      problems.push(
        `${where(section)} has no claim decisions: add a section "### \`${section}\`" to ${DECISION_RECORD} with a row for each of its fields (${fields.map((f) => f.path).join(', ')})`,
      );
      continue;
    }
    for (const { path, tag } of fields) {
      const decided = rows.get(path);
      if (decided === undefined)
        problems.push(`${where(section)}: field \`${path}\` has no claim decision: ${decide}`);
      else if (decided !== (tag ?? 'none'))
        problems.push(
          `${where(section)}: field \`${path}\` is tagged ${tag ?? 'none'} in its schema but ${decided} in ${DECISION_RECORD}: make them agree`,
        );
    }
    const known = new Set(fields.map((f) => f.path));
    for (const path of rows.keys())
      if (!known.has(path))
        problems.push(
          `${DECISION_RECORD}: \`${section}\` has a row for \`${path}\`, which ${where(section)} has no longer: remove the row`,
        );
  }
  for (const section of record.keys())
    if (!schemas.has(section))
      problems.push(`${DECISION_RECORD}: section \`${section}\` names no block type or document`);
  return problems;
}

export const readRecord = () => parseRecord(readFileSync(join(ROOT, DECISION_RECORD), 'utf8'));
