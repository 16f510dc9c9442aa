// The build's checks on the draft, as staff type: asked of the studio server a moment after the last change, so a
// burst of keystrokes is one check; the rest of `npm run check` once typing pauses. Errors are found by their pointer: at a field, in a block, or anywhere.
import { useEffect, useMemo, useState } from 'react';
import { api } from '../api.ts';
import type { FieldError, FieldWarning } from '../form/form-context.ts';

const CHECK_DELAY_MS = 120;
/** Spelling and repeated paragraphs read every page: asked once typing pauses, not at every keystroke. */
const GATE_DELAY_MS = 600;
const BLOCK = /^\/blocks\/(\d+)(?=\/|$)/;

export function useChecks(file: string | undefined, doc: unknown) {
  // The validator's errors and the draft they were found in: until the current draft has its answer, it is being
  // checked. The rest of the gate answers when typing pauses, for its own draft.
  const [answer, setAnswer] = useState<{ doc: unknown; errors: FieldError[] }>({
    doc: undefined,
    errors: [],
  });
  const [gate, setGate] = useState<{ doc: unknown; errors: FieldError[]; warnings: FieldWarning[] }>({
    doc: undefined,
    errors: [],
    warnings: [],
  });
  useEffect(() => {
    if (!file || doc === undefined) return;
    let current = true;
    const ask = (delay: number, run: () => Promise<void>) =>
      setTimeout(() => void run().catch(() => undefined), delay);
    const timers = [
      ask(CHECK_DELAY_MS, async () => {
        const errors = await api.validate(file, doc);
        if (current) setAnswer({ doc, errors });
      }),
      ask(GATE_DELAY_MS, async () => {
        const found = await api.checks(file, doc);
        if (current) setGate({ doc, ...found });
      }),
    ];
    return () => {
      current = false;
      timers.forEach(clearTimeout);
    };
  }, [file, doc]);
  // Until both have answered for the same draft, the draft counts as being checked.
  const checkedDoc = answer.doc === gate.doc ? answer.doc : undefined;
  const errors = useMemo(() => [...answer.errors, ...gate.errors], [answer.errors, gate.errors]);
  const { warnings } = gate;

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
