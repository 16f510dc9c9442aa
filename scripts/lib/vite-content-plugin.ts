// Dev server: a content document that breaks its schema stops Vite with the validator's own message, which the
// browser overlay shows. (The build validates everything once, before bundling.)
import type { Plugin } from 'vite';
import { ROOT, contentPaths } from '../../content/paths.ts';
import { validateDocumentText, formatContentError } from '../../content/validate/validate-content.ts';

const CHECKOUT = contentPaths(ROOT);

const CONTENT = /\/(pages\/.+|site\/site|site\/forms\/[^/]+)\.json$/;

export function contentValidation(): Plugin {
  return {
    name: 'content-validation',
    enforce: 'pre',
    // `npm run build` validates everything once before bundling; per-module checks are for the dev server.
    apply: 'serve',
    transform(code, id) {
      const file = id.split('?')[0] ?? id;
      if (!CONTENT.test(file)) return null;
      const errors = validateDocumentText(CHECKOUT, file, code);
      const first = errors[0];
      if (!first) return null;
      this.error({
        message: `${errors.length} content error${errors.length === 1 ? '' : 's'}:\n${errors.map(formatContentError).join('\n')}`,
        id: file,
        loc: { file, line: first.line, column: first.column - 1 },
      });
    },
  };
}
