import { Fragment } from 'react';
import { parseText, plainText, type TextPiece } from './tokens.ts';
import { SmartLink } from './SmartLink.tsx';
import { useSite } from '../site-context.tsx';

/** Renders content text: {phone} as a tap-to-call link, {email} as a mail link, **bold** and [links](/path). */
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
  return <>{render(parseText(text))}</>;
}

/** Token-replaced plain text, for places that cannot hold links (button labels, attributes). */
export function usePlainText(): (text: string) => string {
  const { site, phone } = useSite();
  return (text) => plainText(text, { phone: phone.display, email: site.email });
}
