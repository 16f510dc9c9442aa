// What the form generator does with each JSON Schema keyword. A keyword a schema uses and this table lacks fails
// schema/keywords.test.ts: a new keyword needs a form (or a written reason it needs none) before staff meet it.

export const FORM_KEYWORDS: Record<string, string> = {
  $schema: 'names the schema dialect; nothing to show',
  $id: 'names the schema; nothing to show',
  $defs: 'holds the definitions $ref points at',
  $ref: 'followed to the definition; the referring description is the help text',
  title: 'names a variant of a oneOf and a new item of an array',
  description: 'help text under the field',
  type: 'chooses the input: text, number, switch, group, list',
  properties: 'one field per property, in schema order',
  required: 'required fields are always shown; optional ones are added and removed',
  additionalProperties: 'false: only the listed properties; a schema: a list of named entries',
  propertyNames: 'the name field of a list of named entries, checked by the validator',
  minProperties: 'checked by the validator; its message shows at the group',
  dependentRequired: 'checked by the validator (a field that needs another); its message shows at the group',
  const: 'a fixed value, shown but not editable',
  enum: 'a select of the allowed values (icons drawn as icons)',
  items: 'a repeatable group with add, remove and reorder',
  minItems: 'a new list starts with this many items',
  maxItems: 'the add button goes once the list has this many items',
  uniqueItems: 'checked by the validator; its message shows at the repeated item',
  minLength: 'required text starts empty and shows the validator’s message',
  maxLength: 'a character counter under the field',
  pattern: 'checked by the validator; links get a picker of pages, anchors and redirects',
  format: 'date: a date input; others checked by the validator',
  minimum: 'the number input’s lower bound',
  maximum: 'the number input’s upper bound',
  oneOf: 'a switch between the variants (paragraph, sub-heading, list; text or badge cell)',
  discriminator: 'the block catalogue: a block’s type is chosen when it is added',
  if: 'with then/else: checked by the validator, its message shows at the field',
  then: 'see if',
  else: 'see if',
  not: 'see if',
  claim:
    'who reviews a change (content/claims/): no input of its own; the review of issue #28 shows it, the form does not',
};

/** Keywords whose values are schemas keyed by name, not keywords: their keys are property names. */
export const NAMED_SCHEMAS = new Set(['properties', '$defs']);
/** Keywords whose values are data, not schemas. */
export const DATA_KEYWORDS = new Set([
  'enum',
  'const',
  'examples',
  'default',
  'required',
  'dependentRequired',
  'discriminator',
  'claim',
]);
