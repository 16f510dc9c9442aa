import { useRef, type MouseEvent } from 'react';
import { CloseButton, Text, Title } from '@mantine/core';
import { LeadForm } from './LeadForm.tsx';
import { formDefinition } from './definitions.ts';
import { RichText } from '../text/RichText.tsx';
import { useSite } from '../site-context.tsx';

export const dialogId = (formId: string): string => `${formId}-dialog`;

/** Shows a dialog as a true modal once scripts run; before that, `popovertarget` opens it as a popover. */
export function openDialog(event: MouseEvent<HTMLElement>, formId: string): void {
  const dialog = document.getElementById(dialogId(formId));
  if (!(dialog instanceof HTMLDialogElement)) return;
  event.preventDefault();
  if (!dialog.open) dialog.showModal();
}

function closeDialog(dialog: HTMLDialogElement | null): void {
  if (!dialog) return;
  if (dialog.matches(':popover-open')) dialog.hidePopover();
  else dialog.close();
}

/**
 * A form in a dialog. It is server-rendered inside `<dialog popover>`, so without JavaScript a `popovertarget`
 * button still opens it and the form posts normally; with JavaScript it opens modally (focus trapped, page inert,
 * Escape closes) and closes itself when the lead is stored.
 */
export function FormDialog({ formId }: { formId: string }) {
  const { site } = useSite();
  const ref = useRef<HTMLDialogElement>(null);
  const definition = formDefinition(formId);
  const id = dialogId(formId);
  return (
    <dialog id={id} ref={ref} popover="auto" className="form-dialog" aria-labelledby={`${id}-title`}>
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
          <RichText text={definition.promise} />
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
