// What the editor and its preview frames say to each other (same origin: window.postMessage).
import type { Json } from '../../../content/json-pointer.ts';

export type ToPreview = {
  type: 'draft';
  doc: Json;
  keys: string[];
  path: string;
  selected: number | null;
  reveal: boolean;
  /** A draft of the site document (header, footer, phone lines) to render the page with, instead of the saved one. */
  site?: Json;
};
export type FromPreview =
  { type: 'ready' } | { type: 'select'; index: number } | { type: 'fold'; ctaOnFirstScreen: boolean | null };
