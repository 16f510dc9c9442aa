// The `claim` keyword: a schema tags the fields whose changes need a particular reviewer (issue #28, item 4).
// Pure data and browser-safe: the validator registers it, the studio and the claim diff read it.
// Why a keyword of our own, not a `description` convention: Ajv checks its value (a typo fails every validation
// run, as strict mode does for unknown keywords), and code can read it without parsing prose.
import type { KeywordDefinition } from 'ajv/dist/2020.js';

export const CLAIM_KEYWORD = 'claim';

/**
 * The tags a schema may give a field:
 * - `clinical`: durations, medications, symptoms, dangers, outcomes and success rates, answers about treatment;
 * - `contact`: phone numbers, e-mail addresses, emergency numbers, tel: and sms: links.
 */
export const CLAIM_TAGS = ['clinical', 'contact'] as const;
export type ClaimTag = (typeof CLAIM_TAGS)[number];

/** What a changed field needs: a tag's reviewer, or `other` (any reviewer) when no tag applies. */
export type ClaimKind = ClaimTag | 'other';

export const isClaimTag = (value: unknown): value is ClaimTag =>
  typeof value === 'string' && (CLAIM_TAGS as readonly string[]).includes(value);

/**
 * Registered with the one Ajv (content/schemas.ts). It validates nothing in documents: it annotates the schema,
 * and its meta-schema rejects any value but the tags above. A tag applies to the field and everything inside it;
 * a tag deeper down wins.
 */
export const CLAIM_KEYWORD_DEFINITION: KeywordDefinition = {
  keyword: CLAIM_KEYWORD,
  schemaType: 'string',
  metaSchema: { enum: [...CLAIM_TAGS] },
};
