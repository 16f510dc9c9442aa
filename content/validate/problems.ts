// What the validator reports: one value per problem, with a stable code a program can act on, the plain message a
// person reads, and where a one-click fix exists, the fix as data. Rewording a message changes no code and no fix.

/** Every kind of problem the validator reports. Stable: tools match on these, never on the message. */
export const PROBLEM_CODES = [
  // The file itself
  'not-a-content-document',
  'unreadable-file',
  'invalid-json',
  'duplicate-property',
  'missing-document',
  'duplicate-route',
  'invalid-page-file-name',
  'wrong-schema-path',
  // Against the schema
  'missing-required',
  'unknown-property',
  'property-not-allowed-here',
  'invalid-block-type',
  'unknown-block-type',
  'unknown-value',
  'not-one-of',
  'wrong-constant',
  'wrong-type',
  'too-short',
  'too-long',
  'too-few-items',
  'too-many-items',
  'too-small',
  'too-large',
  'wrong-pattern',
  'wrong-format',
  'repeated-item',
  'not-allowed',
  'no-matching-alternative',
  'ambiguous-alternative',
  'schema-rule',
  // Across documents and within one
  'unknown-form',
  'repeated-form',
  'promise-mismatch',
  'duplicate-anchor',
  'duplicate-field-name',
  'broken-link',
  'missing-anchor',
  'unknown-program',
  'program-not-in-catalogue',
  'pick-is-this-page',
  'prefer-with-picks',
  'redirect-hides-page',
  'duplicate-redirect',
  'redirect-loop',
  'redirect-chain',
  'redirect-target-not-a-page',
  'redirect-target-missing-anchor',
  // Emergency numbers
  'emergency-number-not-linked',
  'emergency-number-in-plain-field',
  'emergency-number-wrong-link',
  'emergency-number-wrong-href',
  'emergency-number-call-only',
  // Across pages (npm run check:repeats)
  'repeated-paragraph',
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];

/**
 * A one-click fix, as data. `replace`: the value at `pointer` becomes `value`. `replace-link`: in the value at
 * `pointer` (a link, or text holding markdown links), the link target `from` becomes `to`; a value that is not
 * text holding the link is replaced by `to` outright. `rename-property`: the property at `pointer` is renamed `to`.
 */
export type ProblemFix =
  | { kind: 'replace'; pointer: string; value: string }
  | { kind: 'replace-link'; pointer: string; from: string; to: string }
  | { kind: 'rename-property'; pointer: string; to: string };

/** A problem in a content document, placed in its source. */
export type ContentProblem = {
  code: ProblemCode;
  /** Relative to the content root, with forward slashes. */
  file: string;
  /** JSON pointer of the value at fault ('' is the whole document). */
  pointer: string;
  /** 1-based. */
  line: number;
  /** 1-based, in characters (a tab is one column). */
  column: number;
  /** The `type` of the enclosing /blocks/N element, when it is a known block type. */
  block?: string;
  message: string;
  /** What the value most likely meant: a property, a value, a page or an anchor. */
  suggestion?: string;
  fix?: ProblemFix;
};

/** A problem before it is placed in the source: `at: 'key'` points at a property's name instead of its value. */
export type Problem = {
  code: ProblemCode;
  pointer: string;
  message: string;
  at: 'value' | 'key';
  suggestion?: string;
  fix?: ProblemFix;
  /** For a missing required property: its name. */
  missing?: string;
  /** An unknown property that is most likely a misspelling of this one (at the same object). */
  meant?: { object: string; property: string };
};

/** The fix that puts `suggestion` in place of the value at `pointer`, when there is a suggestion. */
export const replaceWith = (pointer: string, suggestion: string | undefined) =>
  suggestion === undefined
    ? {}
    : { suggestion, fix: { kind: 'replace' as const, pointer, value: suggestion } satisfies ProblemFix };
