// Documents the validator's tests write by hand: a real page's head with the blocks a test needs, so each test
// states only what it is about and the line and column numbers it expects stay easy to count.
import { join } from 'node:path';
import { ROOT, contentPaths } from '../paths.ts';
import { formatContentError, validateDocumentText } from './validate-content.ts';

/** The checkout's content: the tests' documents stand among its real pages, forms and catalogue. */
export const CHECKOUT = contentPaths(ROOT);

export const PAGE = join(ROOT, 'pages/services/medical-detox.json');

/** Every problem with `text` as the document `file`, as `npm run validate` prints it. */
export const lines = (file: string, text: string) =>
  validateDocumentText(CHECKOUT, file, text).map(formatContentError);

/** A valid page whose blocks array is `blocks` (its first block starts on line 7). */
export const page = (blocks: string, head = '') => `{
  "$schema": "../../schemas/page.schema.json",
  "title": "Medical Detox in California",
  "description": "Safe, medically supervised detox with 24/7 care, same-day admission and free insurance checks.",
  "keywords": ["medical detox"], "name": "Medical Detox", "sitemap": { "changefreq": "monthly", "priority": 0.9 },${head}
  "blocks": [
${blocks}
  ]
}
`;
