import { useRef, type MouseEvent } from 'react';
import { CloseButton, Text, Title } from '@mantine/core';
import { LeadForm } from './LeadForm.tsx';
import { formDefinition } from './definitions.ts';
import { RichText } from '../text/RichText.tsx';
import { useSite } from '../site-context.tsx';
import { enter, exit, LOOKS, motionReady } from '../motion/motion.ts';
import { promiseText } from '../../core/promise.ts';

export const dialogId = (formId: string): string => `${formId}-dialog`;

/** The closing under way for each dialog: opening it again meanwhile keeps it open. */
const closing = new WeakMap<HTMLDialogElement, symbol>();

/** Shows a dialog as a true modal once scripts run; before that, `popovertarget` opens it as a popover. */
export function openDialog(event: MouseEvent<HTMLElement>, formId: string): void {
  const dialog = document.getElementById(dialogId(formId));
  if (!(dialog instanceof HTMLDialogElement)) return;
  event.preventDefault();
  const reopening = closing.delete(dialog);
  if (dialog.open && !reopening) return;
  if (!dialog.open) dialog.showModal();
  void enter([dialog], LOOKS.dialog);
}

/** Closes a dialog once it has moved out (at once without motion). */
function closeDialog(dialog: HTMLDialogElement | null): void {
  if (!dialog || closing.has(dialog)) return;
  const token = Symbol('closing');
  closing.set(dialog, token);
  void exit([dialog], LOOKS.dialog).then(() => {
    if (closing.get(dialog) !== token) return;
    closing.delete(dialog);
    if (dialog.matches(':popover-open')) dialog.hidePopover();
    else dialog.close();
  });
}

/**
 * A form in a dialog. It is server-rendered inside `<dialog popover>`, so without JavaScript a `popovertarget`
 * button still opens it and the form posts normally; with JavaScript it opens modally (focus trapped, page inert,
 * Escape closes) and closes itself when the lead is stored; with motion (renderer/motion/) it rises into view and
 * sinks away.
 */
export function FormDialog({ formId }: { formId: string }) {
  const { site } = useSite();
  const ref = useRef<HTMLDialogElement>(null);
  const definition = formDefinition(formId);
  const id = dialogId(formId);
  return (
    <dialog
      id={id}
      ref={ref}
      popover="auto"
      className="form-dialog"
      aria-labelledby={`${id}-title`}
      onCancel={(event) => {
        // Escape: with motion, the dialog moves out before it closes. (The browser may refuse to let a page hold a
        // dialog open twice without a click between; it then closes at once.)
        if (!motionReady() || !event.cancelable) return;
        event.preventDefault();
        closeDialog(event.currentTarget);
      }}
    >
      <div className="form-dialog-header">
        <Title order={2} size="h3" id={`${id}-title`}>
          {definition.title ?? definition.name}
        </Title>
        <CloseButton
          size="lg"
          aria-label={site.widget.closeLabel}
          popoverTarget={id}
          popoverTargetAction="hide"
          onClick={(event) => {
            event.preventDefault();
            closeDialog(ref.current);
          }}
        />
      </div>
      {definition.promise && (
        <Text mb="md">
          <RichText text={promiseText(definition.promise, definition.promiseMinutes)} />
        </Text>
      )}
      <LeadForm
        formId={formId}
        definition={definition}
        idPrefix={`${id}-`}
        onSuccess={() => closeDialog(ref.current)}
      />
    </dialog>
  );
}
