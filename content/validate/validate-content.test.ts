import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { ROOT } from '../paths.ts';
import {
  VALIDATORS_FILE,
  blockSchemaFile,
  blockTypes,
  contentSchemasHash,
  documentValidators,
} from '../schemas.ts';
import { formatContentError, kindOf, validateBlock, validateDocumentText } from './validate-content.ts';
import { CHECKOUT, PAGE, lines, page } from './test-documents.ts';

const HERO = `    { "type": "hero", "heading": "Medical Detox", "callLabel": "Call {phone}" }`;

describe('validateDocumentText', () => {
  it('accepts a valid page', () => {
    expect(lines(PAGE, page(HERO))).toEqual([]);
  });

  it('reports a missing property inside block 1 once, as that block’s own problem, at the object', () => {
    const faq = `${HERO},
    {
      "type": "faq",
      "heading": "Questions",
      "items": [
        { "question": "How long does detox take?", "answer": "Usually 3-7 days." },
        { "question": "Is it painful?" }
      ]
    }`;
    expect(lines(PAGE, page(faq))).toEqual([
      'pages/services/medical-detox.json:13:9  /blocks/1/items/1 (faq)  “Answer” (answer) is required',
    ]);
  });

  it('suggests the nearest block type, or lists the known types when none is close', () => {
    const blocks = `    { "type": "timelin", "heading": "Steps", "items": [] },
    { "type": "carousel", "heading": "Photos" }`;
    expect(lines(PAGE, page(blocks))).toEqual([
      'pages/services/medical-detox.json:7:15  /blocks/0/type  unknown block type "timelin"; did you mean "timeline"?',
      `pages/services/medical-detox.json:8:15  /blocks/1/type  unknown block type "carousel"; known types: ${blockTypes().join(', ')}`,
    ]);
  });

  it('suggests the nearest allowed value for icons, variants and phone lines', () => {
    const blocks = `    { "type": "hero", "variant": "emergancy", "heading": "Get Help Now", "callLabel": "Call {phone}",
      "trustPoints": [{ "icon": "hart", "text": "Compassionate care" }] }`;
    expect(lines(PAGE, page(blocks, '\n  "phoneLine": "primry",'))).toEqual([
      'pages/services/medical-detox.json:6:16  /phoneLine  unknown value "primry"; did you mean "primary"?',
      'pages/services/medical-detox.json:8:34  /blocks/0/variant (hero)  unknown value "emergancy"; did you mean "emergency"?',
      'pages/services/medical-detox.json:9:33  /blocks/0/trustPoints/0/icon (hero)  unknown value "hart"; did you mean "heart"?',
    ]);
  });

  it('points at the key of an unknown property and suggests the property meant, without a second error', () => {
    const blocks = `    { "type": "hero", "heading": "Medical Detox", "callLabel": "Call {phone}",
      "sideCard": { "titel": "When you call", "items": ["We listen"] } }`;
    expect(lines(PAGE, page(blocks))).toEqual([
      'pages/services/medical-detox.json:8:21  /blocks/0/sideCard/titel (hero)  unknown property "titel"; did you mean "title"?',
    ]);
  });

  it('lists the allowed properties when no name is close', () => {
    const blocks = `    { "type": "cta-band", "heading": "Call us", "callLabel": "Call", "colour": "red" }`;
    expect(lines(PAGE, page(blocks))).toEqual([
      'pages/services/medical-detox.json:7:70  /blocks/0/colour (cta-band)  unknown property "colour"; allowed properties: type, id, aliases, variant, heading, text, callLabel, secondaryAction',
    ]);
  });

  it('reports a JSON syntax error with its line and column', () => {
    const trailingComma = page(`${HERO},`);
    expect(lines(PAGE, trailingComma)).toEqual([
      'pages/services/medical-detox.json:7:80  (root)  invalid JSON: remove this comma; JSON allows no comma before "]"',
    ]);
    const missingComma = page(`${HERO}\n${HERO}`);
    expect(lines(PAGE, missingComma)).toEqual([
      'pages/services/medical-detox.json:8:5  (root)  invalid JSON: a comma is missing before this',
    ]);
    expect(lines(PAGE, '{\n  "title": "A"')).toEqual([
      'pages/services/medical-detox.json:2:14  (root)  invalid JSON: the file ends too early; a closing }, ] or " is missing',
    ]);
    expect(lines(PAGE, '')).toEqual([
      'pages/services/medical-detox.json:1:1  (root)  invalid JSON: the file is empty',
    ]);
  });

  it('reports a form block whose formId is not a file in site/forms/, with the nearest form', () => {
    const blocks = `    { "type": "form", "heading": "Verify Your Insurance", "formId": "insurance-verfication" }`;
    expect(lines(PAGE, page(blocks))).toEqual([
      'pages/services/medical-detox.json:7:69  /blocks/0/formId (form)  unknown form "insurance-verfication"; did you mean "insurance-verification"?',
    ]);
  });

  it('reports related-programs picks that are no catalogue entry, the page itself, repeated or too many', () => {
    const tramadol = join(ROOT, 'pages/treatment/tramadol-addiction.json');
    const related = (picks: string) =>
      `    { "type": "related-programs", "heading": "Related", "category": "opioid", "learnMoreLabel": "Learn More",
      "viewAll": { "label": "All programs", "href": "/#programs" },
      "picks": ${picks} }`;
    expect(
      lines(
        tramadol,
        page(
          related(
            '["/treatment/opiod-dependency", "/treatment/tramadol-addiction", "/services/elite-nursing"]',
          ),
        ),
      ),
    ).toEqual([
      'pages/treatment/tramadol-addiction.json:9:17  /blocks/0/picks/0 (related-programs)  unknown program "/treatment/opiod-dependency"; did you mean "/treatment/opioid-dependency"?',
      'pages/treatment/tramadol-addiction.json:9:48  /blocks/0/picks/1 (related-programs)  "/treatment/tramadol-addiction" is this page; pick other programs',
      'pages/treatment/tramadol-addiction.json:9:81  /blocks/0/picks/2 (related-programs)  "/services/elite-nursing" is a page but not in the program catalogue (site/programs.json): add it there, with its card\'s title and description, to show it here',
    ]);
    expect(
      lines(
        tramadol,
        page(
          related(
            '["/services/medical-detox", "/services/medical-detox", "/treatment/heroin-addiction", "/"]',
          ),
        ),
      ),
    ).toEqual([
      'pages/treatment/tramadol-addiction.json:9:16  /blocks/0/picks (related-programs)  has 4 items; at most 3 are allowed',
      'pages/treatment/tramadol-addiction.json:9:44  /blocks/0/picks/1 (related-programs)  repeats item 0; each value may appear only once',
      'pages/treatment/tramadol-addiction.json:9:102  /blocks/0/picks/3 (related-programs)  "/" is a page but not in the program catalogue (site/programs.json): add it there, with its card\'s title and description, to show it here',
    ]);
  });

  it('reports a second form that does not exist, one without the section id, and a form shown twice', () => {
    const blocks = `    { "type": "form", "id": "contact", "heading": "Get Started", "formId": "consultation",
      "secondFormId": "insurance-verfication" },
    { "type": "form", "heading": "Talk to Us", "formId": "consultation", "secondFormId": "insurance-verification" }`;
    expect(lines(PAGE, page(blocks))).toEqual([
      'pages/services/medical-detox.json:8:23  /blocks/0/secondFormId (form)  unknown form "insurance-verfication"; did you mean "insurance-verification"?',
      'pages/services/medical-detox.json:9:5  /blocks/1 (form)  must have property id when property secondFormId is present',
      'pages/services/medical-detox.json:9:58  /blocks/1/formId (form)  form "consultation" is already shown at /blocks/0/formId; a page shows each form once',
    ]);
  });

  it('reports an anchor used twice on a page, by id or alias', () => {
    const blocks = `    { "type": "cta-band", "id": "contact", "heading": "Call us", "callLabel": "Call" },
    { "type": "cta-band", "id": "help", "aliases": ["contact"], "heading": "Call us", "callLabel": "Call" }`;
    expect(lines(PAGE, page(blocks))).toEqual([
      'pages/services/medical-detox.json:8:53  /blocks/1/aliases/0 (cta-band)  anchor "contact" is already used at /blocks/0/id; ids and aliases must be unique on a page',
    ]);
  });

  it('reports the mistake of the rich-text body entry that was meant, not every form it could take', () => {
    const blocks = `    { "type": "rich-text", "heading": "After detox", "body": [
      "A paragraph.",
      { "subheading": "" },
      { "lst": ["Therapy"] },
      42
    ] }`;
    expect(lines(PAGE, page(blocks))).toEqual([
      'pages/services/medical-detox.json:9:23  /blocks/0/body/1/subheading (rich-text)  must not be empty',
      'pages/services/medical-detox.json:10:9  /blocks/0/body/2/lst (rich-text)  unknown property "lst"; did you mean "list"?',
      'pages/services/medical-detox.json:11:7  /blocks/0/body/3 (rich-text)  must be a string, an object with "subheading" or an object with "list"',
    ]);
  });

  it('uses plain words for lengths, types and patterns, and checks $schema points at the right schema', () => {
    const text = `{
  "$schema": "../schemas/page.schema.json",
  "title": "Detox",
  "description": "Safe, medically supervised detox with 24/7 care, same-day admission and free insurance checks.",
  "keywords": ["medical detox"], "name": "Medical Detox", "sitemap": { "changefreq": "monthly", "priority": 0.9 },
  "blocks": [
    { "type": "hero", "id": "Top", "heading": "", "callLabel": 5,
      "secondaryAction": { "label": "Verify", "href": "insurance" } }
  ]
}`;
    expect(lines(PAGE, text)).toEqual([
      'pages/services/medical-detox.json:2:14  /$schema  must be "../../schemas/page.schema.json", the path from this file to the page schema, so editors can check it',
      'pages/services/medical-detox.json:3:12  /title  is too short: 5 characters, at least 10',
      'pages/services/medical-detox.json:7:29  /blocks/0/id (hero)  must start with a lower-case letter and use only lower-case letters, digits and hyphens',
      'pages/services/medical-detox.json:7:47  /blocks/0/heading (hero)  must not be empty',
      'pages/services/medical-detox.json:7:64  /blocks/0/callLabel (hero)  must be a string, not a whole number',
      'pages/services/medical-detox.json:8:55  /blocks/0/secondaryAction/href (hero)  must be a site path such as /services/medical-detox or /#contact, {phone}, or a tel:, sms:, mailto: or https:// address',
    ]);
  });

  it('reports a block without a type once, with the block types', () => {
    expect(lines(PAGE, page(`    { "heading": "Untyped" }`))).toEqual([
      `pages/services/medical-detox.json:7:5  /blocks/0  “Type” (type) is required; block types: ${blockTypes().join(', ')}`,
    ]);
  });

  it('reports a repeated key, which JSON would otherwise drop silently', () => {
    const blocks = `    { "type": "hero", "heading": "Medical Detox", "heading": "Detox", "callLabel": "Call {phone}" }`;
    expect(lines(PAGE, page(blocks))).toEqual([
      'pages/services/medical-detox.json:7:51  /blocks/0/heading (hero)  property "heading" appears twice; only the last one counts',
    ]);
  });

  it('finds repeated keys at any depth, past strings holding quotes, backslashes and brackets', () => {
    const blocks = `${HERO},
    { "type": "faq", "heading": "Say \\"hi\\" {[,]} \\\\", "items": [
      { "question": "Why \\\\\\"?", "answer": "Because, [really]." },
      { "question": "How?", "answer": "Like so.", "question": "When?" }
    ] }`;
    expect(lines(PAGE, page(blocks))).toEqual([
      'pages/services/medical-detox.json:10:51  /blocks/1/items/1/question (faq)  property "question" appears twice; only the last one counts',
    ]);
  });

  it('checks form definitions: options only for select fields, unique field names', () => {
    const file = join(ROOT, 'site/forms/callback.json');
    const text = `{
  "$schema": "../../schemas/form.schema.json",
  "name": "Callback",
  "promiseMinutes": 15,
  "fields": [
    { "name": "phone", "label": "Phone", "type": "tel", "required": true, "options": [{ "label": "A", "value": "a" }] },
    { "name": "phone", "label": "Phone again", "type": "select", "required": false }
  ],
  "submitLabel": "Call me back",
  "submittingLabel": "Submitting...",
  "requiredMessage": "This field is required",
  "success": { "title": "Thank you", "text": "We will call you soon." },
  "failure": { "title": "Sorry", "text": "Please call us instead." }
}`;
    expect(lines(file, text)).toEqual([
      'site/forms/callback.json:6:75  /fields/0/options  property "options" is only allowed when type is "select"',
      'site/forms/callback.json:7:5  /fields/1  “Options” (options) is required',
      'site/forms/callback.json:7:15  /fields/1/name  field name "phone" is used twice',
    ]);
  });

  it('fails a form whose words promise other than its promiseMinutes, and a form block that does', () => {
    const file = join(ROOT, 'site/forms/callback.json');
    const text = `{
  "$schema": "../../schemas/form.schema.json",
  "name": "Callback",
  "promiseMinutes": 15,
  "promise": "A counselor will call you within {promise}.",
  "fields": [{ "name": "phone", "label": "Phone", "type": "tel", "required": true }],
  "submitLabel": "Call me back",
  "submittingLabel": "Submitting...",
  "requiredMessage": "This field is required",
  "success": { "title": "Thank you", "text": "We will call you within 30 minutes." },
  "failure": { "title": "Sorry", "text": "Please call us instead." }
}`;
    expect(lines(file, text)).toEqual([
      'site/forms/callback.json:10:46  /success/text  "within 30 minutes" disagrees with this form\'s promiseMinutes (15 minutes): the inbox holds admissions to that value, so the words must say the same',
    ]);
    expect(lines(file, text.replace('within 30 minutes', 'within 15 minutes'))).toEqual([]);
    // The promise's own time is never typed, even when it agrees today: it is made from promiseMinutes.
    const fixed = text.replace('within 30 minutes', 'within 15 minutes');
    expect(lines(file, fixed.replace('within {promise}', 'within 15 minutes'))).toEqual([
      'site/forms/callback.json:5:14  /promise  "within 15 minutes" is typed: a form\'s promise states its time as {promise}, made from its promiseMinutes (15 minutes), so the page and the inbox\'s due time can never disagree',
    ]);
    // Nothing makes words of {promise} outside the promise.
    expect(lines(file, fixed.replace('within 15 minutes.', 'within {promise}.'))).toEqual([
      'site/forms/callback.json:10:46  /success/text  {promise} is made into words only in a form\'s "promise"; here it would be shown as typed',
    ]);
    const blocks = `    { "type": "form", "id": "verify", "heading": "Verify", "intro": "We answer within an hour.", "formId": "insurance-verification" }`;
    expect(lines(PAGE, page(blocks))).toEqual([
      'pages/services/medical-detox.json:7:69  /blocks/0/intro (form)  "within an hour" disagrees with form "insurance-verification"\'s promiseMinutes (24 hours): the inbox holds admissions to that value, so the words must say the same',
    ]);
    expect(lines(PAGE, page(blocks.replace('within an hour', 'within 24 hours')))).toEqual([]);
  });

  it('fails page text whose {promise:<form id>} names no form, or stands where it is not made into words', () => {
    const faq = (answer: string) =>
      `    { "type": "faq", "heading": "Questions", "items": [{ "question": "When?", "answer": "${answer}" }] }`;
    expect(lines(PAGE, page(faq('We answer within {promise:insurance-verification}.')))).toEqual([]);
    expect(lines(PAGE, page(faq('We answer within {promise:insurance-verificaton}.')))).toEqual([
      'pages/services/medical-detox.json:7:89  /blocks/0/items/0/answer (faq)  {promise:insurance-verificaton}: unknown form "insurance-verificaton"; did you mean "insurance-verification"?',
    ]);
    expect(lines(PAGE, page(faq('We answer within {promise}.')))).toEqual([
      "pages/services/medical-detox.json:7:89  /blocks/0/items/0/answer (faq)  {promise} names no form here: page text states a form's promise as {promise:<form id>}, such as {promise:consultation}",
    ]);
    const hero = `    { "type": "hero", "heading": "Help", "badge": "A call within {promise:consultation}", "callLabel": "Call {phone}" }`;
    expect(lines(PAGE, page(hero))).toEqual([
      "pages/services/medical-detox.json:7:51  /blocks/0/badge (hero)  {promise:<form id>} is made into words only in formatted text and a page's title, description and social text; here it would be shown as typed",
    ]);
  });

  it("fails a page's own text that types the promise of a form it shows, or promises a call back in another time", () => {
    const onPage = (point: string) =>
      page(`    { "type": "hero", "heading": "Help", "trustPoints": [{ "text": "${point}" }], "callLabel": "Call {phone}" },
    { "type": "form", "id": "verify", "heading": "Verify", "formId": "insurance-verification" }`);
    expect(lines(PAGE, onPage('Answer within {promise:insurance-verification}'))).toEqual([]);
    expect(lines(PAGE, onPage('Answer Within 24 Hours'))).toEqual([
      'pages/services/medical-detox.json:7:68  /blocks/0/trustPoints/0/text (hero)  "Within 24 Hours" types the promise of form "insurance-verification" on this page: write {promise:insurance-verification}, made from its promiseMinutes, so the words follow the time the inbox holds admissions to',
    ]);
    expect(lines(PAGE, onPage('We call back within 2 hours'))).toEqual([
      'pages/services/medical-detox.json:7:68  /blocks/0/trustPoints/0/text (hero)  "within 2 hours" disagrees with the promise of every form on this page ("insurance-verification": 24 hours): the inbox holds admissions to that, so the words must say the same',
    ]);
    // A clinical time is not a promise to call, and a page without a form promises nothing.
    expect(lines(PAGE, onPage('Withdrawal can begin within 12 hours'))).toEqual([]);
    const noForm = `    { "type": "hero", "heading": "Help", "trustPoints": [{ "text": "Answer Within 24 Hours" }], "callLabel": "Call {phone}" }`;
    expect(lines(PAGE, page(noForm))).toEqual([]);
  });

  it('checks the site document against the site schema', () => {
    const file = join(ROOT, 'site/site.json');
    const site = JSON.parse(readFileSync(file, 'utf8')) as { phones: { primary: { display: string } } };
    site.phones.primary.display = '555-010-0123';
    const errors = validateDocumentText(CHECKOUT, file, JSON.stringify(site, null, 2));
    expect(errors.map((e) => `${e.pointer}  ${e.message}`)).toEqual([
      '/phones/primary/display  must be written like (555) 010-0123',
    ]);
  });
});

describe('validateBlock', () => {
  it('gives pointers relative to the block and the block type', () => {
    expect(
      validateBlock({ type: 'faq', heading: 'Questions', items: [{ question: 'Why?' }] }, CHECKOUT),
    ).toEqual([
      {
        code: 'missing-required',
        pointer: '/items/0',
        block: 'faq',
        message: '“Answer” (answer) is required',
      },
    ]);
  });

  it('reports unknown and missing block types', () => {
    expect(validateBlock({ type: 'hro', heading: 'Hi' }, CHECKOUT)).toEqual([
      {
        code: 'unknown-block-type',
        pointer: '/type',
        message: 'unknown block type "hro"; did you mean "hero"?',
        suggestion: 'hero',
        fix: { kind: 'replace', pointer: '/type', value: 'hero' },
      },
    ]);
    expect(validateBlock({ heading: 'Hi' }, CHECKOUT).map((p) => p.pointer)).toEqual(['']);
  });

  it('passes every block example and fails every invalid example exactly where it says', () => {
    for (const type of blockTypes()) {
      const dir = join(blockSchemaFile(type), '..');
      expect(
        validateBlock(JSON.parse(readFileSync(join(dir, 'example.json'), 'utf8')), CHECKOUT),
        type,
      ).toEqual([]);
      const invalid = JSON.parse(readFileSync(join(dir, 'example.invalid.json'), 'utf8')) as {
        expectedError: { pointer: string; message: string };
        block: unknown;
      };
      const problems = validateBlock(invalid.block, CHECKOUT);
      expect(problems, type).toHaveLength(1);
      expect(problems[0]?.pointer, type).toBe(invalid.expectedError.pointer);
      expect(problems[0]?.message, type).toContain(invalid.expectedError.message);
    }
  });
});

describe('helpers', () => {
  it('formats a root-level error with (root) and omits the block type when there is none', () => {
    expect(
      formatContentError({
        code: 'schema-rule',
        file: 'pages/index.json',
        line: 1,
        column: 1,
        pointer: '',
        message: 'x',
      }),
    ).toBe('pages/index.json:1:1  (root)  x');
  });

  it('infers the kind of document from its path', () => {
    expect(kindOf(CHECKOUT, join(ROOT, 'pages/index.json'))).toBe('page');
    expect(kindOf(CHECKOUT, join(ROOT, 'site/site.json'))).toBe('site');
    expect(kindOf(CHECKOUT, join(ROOT, 'site/forms/insurance-verification.json'))).toBe('form');
    expect(kindOf(CHECKOUT, join(ROOT, 'package.json'))).toBeUndefined();
  });

  it('validates with the validators generated ahead of time, compiled from the schemas as they are', () => {
    const generated = createRequire(import.meta.url)(VALIDATORS_FILE) as Record<string, unknown>;
    expect(generated.sourceHash).toBe(contentSchemasHash());
    expect(documentValidators().page).toBe(generated.page);
  });
});
