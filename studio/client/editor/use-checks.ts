// The build's checks on the draft, as staff type: asked of the studio server a moment after the last change, so a
// burst of keystrokes is one check. Errors are found by their pointer: at a field, in a block, or anywhere.
import { useEffect, useMemo, useState } from 'react';
import { api } from '../api.ts';
import type { FieldError, FieldWarning } from '../form/form-context.ts';

const CHECK_DELAY_MS = 120;
const BLOCK = /^\/blocks\/(\d+)(?=\/|$)/;

export function useChecks(file: string | undefined, doc: unknown) {
  // The errors and the draft they were found in: until the current draft has its answer, it is being checked.
  const [answer, setAnswer] = useState<{ doc: unknown; errors: FieldError[]; warnings: FieldWarning[] }>({
    doc: undefined,
    errors: [],
    warnings: [],
  });
  const { errors, warnings, doc: checkedDoc } = answer;
  useEffect(() => {
    if (!file || doc === undefined) return;
    let current = true;
    const timer = setTimeout(() => {
      api
        .validate(file, doc)
        .then((found) => {
          if (current) setAnswer({ doc, ...found });
        })
        .catch(() => undefined);
    }, CHECK_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [file, doc]);

  return useMemo(() => {
    const byPointer = new Map<string, FieldError[]>();
    for (const e of errors) byPointer.set(e.pointer, [...(byPointer.get(e.pointer) ?? []), e]);
    const blockOf = (pointer: string) => {
      const match = BLOCK.exec(pointer);
      return match ? Number(match[1]) : null;
    };
    return {
      errors,
      warnings,
      /** Errors the save is refused for (the validator's); spelling and repeats fail `npm run check` only. */
      blocking: errors.filter((e) => e.check === undefined).length,
      /** The draft these errors were found in: any other is still being checked. */
      checkedDoc,
      errorsAt: (pointer: string) => byPointer.get(pointer) ?? [],
      blockOf,
      inBlock: (index: number) => errors.filter((e) => blockOf(e.pointer) === index).length,
      outsideBlocks: errors.filter((e) => blockOf(e.pointer) === null).length,
    };
  }, [errors, warnings, checkedDoc]);
}

/** Takes staff to a field: its block selected, the field (or the nearest that holds it) focused and in view. */
export function useGoTo(checks: ReturnType<typeof useChecks>, select: (block: number | null) => void) {
  const goTo = (pointer: string) => {
    select(checks.blockOf(pointer));
    setTimeout(() => {
      for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
        const el = window.document.querySelector<HTMLElement>(`[data-pointer="${CSS.escape(p)}"]`);
        if (el) return void (el.focus(), el.scrollIntoView({ block: 'center' }));
        if (p === '') return;
      }
    }, 50);
  };
  const firstError = () => {
    if (checks.errors[0]) goTo(checks.errors[0].pointer);
  };
  return { goTo, firstError };
}
