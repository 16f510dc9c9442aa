// The content root is a parameter: a small set of documents in a temporary folder, not the checkout, is checked on
// its own (its own pages, forms and redirects), with every problem placed at file:line:col and given its code.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTempDirForAll } from '../../tests/helpers/temp-dir.ts';
import { formatContentError, validateContent } from './validate-content.ts';

const HOME = `{
  "$schema": "../schemas/page.schema.json",
  "title": "Recovery Care in California",
  "description": "Safe, medically supervised detox with 24/7 care, same-day admission and free insurance checks.",
  "keywords": ["detox"], "name": "Home", "sitemap": { "changefreq": "monthly", "priority": 1 },
  "blocks": [
    { "type": "hero", "id": "top", "heading": "Recovery Care", "callLabel": "Call {phone}" }
  ]
}
`;

const ABOUT = `{
  "$schema": "../schemas/page.schema.json",
  "title": "About Recovery Care in California",
  "description": "Who we are, how our admissions team works, and what a first call with us is like.",
  "keywords": ["about"], "name": "About", "sitemap": { "changefreq": "monthly", "priority": 0.7 },
  "blocks": [
    { "type": "hero", "heading": "About us", "callLabel": "Call {phone}",
      "secondaryAction": { "label": "Home", "href": "/#tops" } },
    { "type": "form", "heading": "Call us back", "formId": "callback" }
  ]
}
`;

const tempRoot = useTempDirForAll('content-root-');
let root: string;
const write = (file: string, text: string) => {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
};

beforeAll(() => {
  root = tempRoot();
  write('pages/index.json', HOME);
  write('pages/about.json', ABOUT);
  write(
    'site/redirects.json',
    '{\n  "$schema": "../schemas/redirects.schema.json",\n  "redirects": [{ "from": ["/us"], "to": "/about" }]\n}\n',
  );
});

describe('validateContent({ root })', () => {
  it('checks the documents under the root given, placed at file:line:col, each with its code', () => {
    const problems = validateContent({ root });
    expect(problems.map(formatContentError)).toEqual([
      'site/site.json:1:1  (root)  the site document is missing',
      'site/programs.json:1:1  (root)  the program catalogue is missing',
      'pages/about.json:8:53  /blocks/0/secondaryAction/href (hero)  link "/#tops": the page / has no section with id "tops"',
      'pages/about.json:9:60  /blocks/1/formId (form)  unknown form "callback": site/forms/ has no form definitions',
    ]);
    expect(problems.map((p) => p.code)).toEqual([
      'missing-document',
      'missing-document',
      'missing-anchor',
      'unknown-form',
    ]);
    expect(problems[2]).toMatchObject({
      file: 'pages/about.json',
      pointer: '/blocks/0/secondaryAction/href',
      line: 8,
      column: 53,
      block: 'hero',
      suggestion: '/#top',
      fix: { kind: 'replace-link', pointer: '/blocks/0/secondaryAction/href', from: '/#tops', to: '/#top' },
    });
  });

  it('checks only the files named, against the rest of the root as it is on disk', () => {
    const problems = validateContent({ root, files: [join(root, 'pages/index.json')] });
    expect(problems).toEqual([]);
  });
});
