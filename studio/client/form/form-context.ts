// What every generated field needs besides its own schema and value: how to change the document, the errors the
// build's checks found, the site's pages for link pickers, and the values {phone} and {email} print on this page.
import { createContext, useContext } from 'react';
import { fieldLabel } from '../../../content/labels.ts';
import type { ProblemCode, ProblemFix } from '../../../content/validate/problems.ts';
import { createDocumentStore, type DocumentStore } from '../editor/document-store.ts';

/** A problem the build's checks found, as the studio server sends it (studio/server/checks.ts). */
export type FieldError = {
  code: ProblemCode | 'misspelling';
  pointer: string;
  message: string;
  suggestion?: string;
  fix?: ProblemFix;
  /** Found by `npm run check`'s spelling or repeated-paragraph check: fails the check, but does not refuse a save. */
  check?: 'spelling' | 'repeats';
};
/** `npm run validate`'s warnings (search-result lengths, a title another page uses): shown, never blocking. */
export type FieldWarning = { pointer: string; message: string };
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

/** Plain words for a property name (content/labels.ts: the same words `npm run validate` uses). */
export const labelOf = fieldLabel;

/** Whether a field can apply the fix to its own value (a rename is its object's change, not the field's). */
export const fixesValue = (
  fix: ProblemFix | undefined,
): fix is Exclude<ProblemFix, { kind: 'rename-property' }> =>
  fix !== undefined && fix.kind !== 'rename-property';

/** The value a fix makes: a link inside text is replaced where it stands, anything else outright. */
export function applyFix(value: unknown, fix: ProblemFix): unknown {
  switch (fix.kind) {
    case 'replace':
      return fix.value;
    case 'replace-link':
      return typeof value === 'string' && value !== fix.from
        ? value.split(`(${fix.from})`).join(`(${fix.to})`)
        : fix.to;
    case 'rename-property':
      return value;
  }
}
