// What every generated field needs besides its own schema and value: how to change the document, the errors the
// build's checks found, the site's pages for link pickers, and the values {phone} and {email} print on this page.
import { createContext, useContext } from 'react';
import { createDocumentStore, type DocumentStore } from '../editor/document-store.ts';

export type FieldError = { pointer: string; message: string; suggestion?: string };
export type SiteLinks = {
  pages: { path: string; anchors: string[] }[];
  redirects: { from: string; to: string }[];
};

export type FormContextValue = {
  /** The draft as typed, ahead of the editor's rendering: each field shows its value from here. */
  store: DocumentStore;
  change: (pointer: string, value: unknown, label?: string) => void;
  errorsAt: (pointer: string) => FieldError[];
  links: SiteLinks;
  tokens: { phone: string; email: string };
};

export const FormContext = createContext<FormContextValue>({
  store: createDocumentStore(),
  change: () => undefined,
  errorsAt: () => [],
  links: { pages: [], redirects: [] },
  tokens: { phone: '', email: '' },
});
export const useForm = () => useContext(FormContext);

/** Plain words for a property name: trustPoints is "Trust points". */
export const labelOf = (name: string) =>
  name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[-_]/g, ' ')
    .toLowerCase()
    .replace(/^./, (c) => c.toUpperCase());

/** The value a suggestion makes: a link inside text is replaced where it stands, anything else outright. */
export function applySuggestion(value: unknown, error: FieldError): unknown {
  if (error.suggestion === undefined) return value;
  const link = /^link "([^"]+)"/.exec(error.message)?.[1];
  if (typeof value === 'string' && link && value !== link)
    return value.split(`(${link})`).join(`(${error.suggestion})`);
  return error.suggestion;
}
