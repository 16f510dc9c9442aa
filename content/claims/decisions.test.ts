// Every block type and field has a claim decision: a new block or field without one fails here, with a message
// that names it and says where to decide.
import { describe, expect, it } from 'vitest';
import { decisionProblems, parseRecord, readRecord, schemaSections } from './decisions.ts';

describe('claim-tag decisions', () => {
  it('has a row, with the schema’s tag, for every field of every block and document schema', () => {
    const schemas = schemaSections();
    expect(schemas.get('faq')?.map((f) => f.path)).toContain('items[].answer');
    expect(decisionProblems(readRecord(), schemas)).toEqual([]);
  });

  const record = parseRecord(
    [
      '### `faq`',
      '',
      '| Field | Tag | Why |',
      '| --- | --- | --- |',
      '| `items[].answer` | clinical | Answers. |',
    ].join('\n'),
  );

  it('names a field without a decision, and where to decide', () => {
    const schemas = new Map([
      [
        'faq',
        [
          { path: 'items[].answer', tag: 'clinical' as const },
          { path: 'items[].source', tag: undefined },
        ],
      ],
    ]);
    expect(decisionProblems(record, schemas)).toEqual([
      expect.stringMatching(
        /^blocks\/faq\/schema\.json: field `items\[\]\.source` has no claim decision: add a row to its table in docs\/decisions\/2026-11-28-claim-tags\.md/,
      ),
    ]);
  });

  it('names a block type without a section, and a tag the schema contradicts', () => {
    const schemas = new Map([
      ['faq', [{ path: 'items[].answer', tag: undefined }]],
      ['quiz', [{ path: 'question', tag: undefined }]],
    ]);
    expect(decisionProblems(record, schemas)).toEqual([
      'blocks/faq/schema.json: field `items[].answer` is tagged none in its schema but clinical in docs/decisions/2026-11-28-claim-tags.md: make them agree',
      expect.stringMatching(/^blocks\/quiz\/schema\.json has no claim decisions: add a section "### `quiz`"/),
    ]);
  });
});
