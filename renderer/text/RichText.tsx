import { Fragment } from 'react';
import { parseText, plainText, type TextPiece } from './tokens.ts';
import { SmartLink } from './SmartLink.tsx';
import { useSite } from '../site-context.tsx';
import { formPromise, withPromises } from './form-promise.ts';

/**
 * Renders content text: {phone} as a tap-to-call link, {email} as a mail link, {promise:<form id>} as that form's
 * promise in words, **bold** and [links](/path).
 */
export function RichText({ text }: { text: string }) {
  const { site, phone } = useSite();
  const render = (pieces: TextPiece[]) =>
    pieces.map((piece, i) => {
      switch (piece.kind) {
        case 'text':
          return <Fragment key={i}>{piece.text}</Fragment>;
        case 'phone':
          return (
            <a key={i} href={`tel:${phone.tel}`} className="tel-link">
              {phone.display}
            </a>
          );
        case 'email':
          return (
            <a key={i} href={`mailto:${site.email}`}>
              {site.email}
            </a>
          );
        case 'promise':
          return <Fragment key={i}>{formPromise(piece.formId) ?? `{promise:${piece.formId}}`}</Fragment>;
        case 'bold':
          return <strong key={i}>{render(piece.children)}</strong>;
        case 'link':
          return (
            <SmartLink key={i} href={piece.href}>
              {render(piece.children)}
            </SmartLink>
          );
      }
    });
  // Promises in words first: one run of text with the words around them, as the server writes it and the browser
  // hydrates it (no text node of their own).
  return <>{render(parseText(withPromises(text)))}</>;
}

/**
 * A label that cannot hold links (a button's, a menu link's): tokens as plain text, with the phone number kept whole
 * on one line when the label wraps.
 */
export function LabelText({ text }: { text: string }) {
  const { site, phone } = useSite();
  // One element, so a label laid out as a flex row (Mantine's buttons) still wraps as one run of text.
  return (
    <span>
      {plainText(text, { phone: phone.display, email: site.email, promise: formPromise })
        .split(phone.display)
        .map((part, i) => (
          <Fragment key={i}>
            {i > 0 && <span className="phone-number">{phone.display}</span>}
            {part}
          </Fragment>
        ))}
    </span>
  );
}
