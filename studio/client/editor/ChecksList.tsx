// Everything the content checks say about the draft, in one list under the toolbar: the validator's errors (also
// shown at their fields), the spelling and repeated paragraphs `npm run check` fails on, and `npm run validate`'s
// warnings, each at its field in words, one click from it.
import { Anchor, List, Text } from '@mantine/core';
import type { Json } from '../../../content/json-pointer.ts';
import type { FieldError, FieldWarning } from '../form/form-context.ts';
import { fieldWords } from './field-words.ts';

type Props = { errors: FieldError[]; warnings: FieldWarning[]; doc: Json; goTo: (pointer: string) => void };

const SOURCE = { spelling: 'Spelling', repeats: 'Repeated paragraph' } as const;

export function ChecksList({ errors, warnings, doc, goTo }: Props) {
  if (errors.length === 0 && warnings.length === 0) return null;
  const item = (kind: 'Error' | 'Warning', p: FieldError | FieldWarning, key: string) => (
    <List.Item key={key} data-kind={kind.toLowerCase()}>
      <Text span size="sm" fw={600} c={kind === 'Error' ? 'red.9' : 'yellow.9'}>
        {'check' in p && p.check ? `${kind} (${SOURCE[p.check]})` : kind}:{' '}
      </Text>
      <Anchor component="button" type="button" size="sm" onClick={() => goTo(p.pointer)}>
        {fieldWords(doc, p.pointer)}
      </Anchor>
      <Text span size="sm">
        {' '}
        – {p.message}
      </Text>
    </List.Item>
  );
  return (
    <section aria-label="Checks" data-testid="checks">
      <List size="sm" spacing={2}>
        {errors.map((e, i) => item('Error', e, `e${i}`))}
        {warnings.map((w, i) => item('Warning', w, `w${i}`))}
      </List>
    </section>
  );
}
