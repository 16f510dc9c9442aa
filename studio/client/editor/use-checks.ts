// The build's checks on the draft, as staff type: asked of the studio server a moment after the last change, so a
// burst of keystrokes is one check. Errors are found by their pointer: at a field, in a block, or anywhere.
import { useEffect, useMemo, useState } from 'react';
import { api } from '../api.ts';
import type { FieldError } from '../form/form-context.ts';

const CHECK_DELAY_MS = 120;
const BLOCK = /^\/blocks\/(\d+)(?=\/|$)/;

export function useChecks(file: string | undefined, doc: unknown) {
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [checking, setChecking] = useState(false);
  useEffect(() => {
    if (!file || doc === undefined) return;
    let current = true;
    setChecking(true);
    const timer = setTimeout(() => {
      api
        .validate(file, doc)
        .then((found) => {
          if (current) setErrors(found);
        })
        .catch(() => undefined)
        .finally(() => {
          if (current) setChecking(false);
        });
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
      checking,
      errorsAt: (pointer: string) => byPointer.get(pointer) ?? [],
      blockOf,
      inBlock: (index: number) => errors.filter((e) => blockOf(e.pointer) === index).length,
      outsideBlocks: errors.filter((e) => blockOf(e.pointer) === null).length,
    };
  }, [errors, checking]);
}
