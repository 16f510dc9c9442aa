// Under a text field: the text as it will print, {phone}, {email} and {promise:<form id>} as chips with this page's
// values (a form's promise from its promiseMinutes), **bold** in bold and [links](/path) as links.
import { Badge, Text } from '@mantine/core';
import { Fragment, type ReactNode } from 'react';
import { formPromise } from '../../../renderer/text/form-promise.ts';
import { parseText, type TextPiece } from '../../../renderer/text/tokens.ts';
import { useForm } from './form-context.ts';

function pieces(list: TextPiece[], tokens: { phone: string; email: string }): ReactNode[] {
  return list.map((piece, i) => {
    switch (piece.kind) {
      case 'text':
        return <Fragment key={i}>{piece.text}</Fragment>;
      case 'phone':
        return (
          <Badge key={i} size="sm" variant="light" tt="none" title="{phone}: this page's phone line">
            {tokens.phone}
          </Badge>
        );
      case 'email':
        return (
          <Badge key={i} size="sm" variant="light" tt="none" title="{email}: the site's e-mail">
            {tokens.email}
          </Badge>
        );
      case 'promise':
        return (
          <Badge
            key={i}
            size="sm"
            variant="light"
            tt="none"
            title={`{promise:${piece.formId}}: the promise of form ${piece.formId}, from its promiseMinutes`}
          >
            {formPromise(piece.formId) ?? `no form "${piece.formId}"`}
          </Badge>
        );
      case 'bold':
        return <strong key={i}>{pieces(piece.children, tokens)}</strong>;
      case 'link':
        return (
          <Text key={i} span c="blue.8" td="underline" title={piece.href}>
            {pieces(piece.children, tokens)}
          </Text>
        );
    }
  });
}

export function TextPreview({ text }: { text: string }) {
  const { tokens } = useForm();
  if (!/\{phone\}|\{email\}|\{promise:|\*\*|\]\(/.test(text)) return null;
  return (
    <Text size="sm" c="dimmed" mt={4} data-testid="text-preview" component="div">
      Prints as: {pieces(parseText(text), tokens)}
    </Text>
  );
}
