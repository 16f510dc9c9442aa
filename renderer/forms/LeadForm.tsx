import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { Button, Input, Loader, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useLocation } from '@tanstack/react-router';
import type { FormDefinition, FormField } from '../../generated/content-types.ts';
import {
  fieldErrors,
  HONEYPOT_FIELD,
  IDEMPOTENCY_HEADER,
  maxLengthOf,
  PHONE_PATTERN,
} from '../../core/form-rules.ts';
import { RichText } from '../text/RichText.tsx';
import { prefetchToasts, showToast } from '../toasts.tsx';
import { useSite } from '../site-context.tsx';
import { hydrationGate } from '../shell/hydration-gate.ts';

type Values = Record<string, string>;
const emptyValues = (definition: FormDefinition): Values =>
  Object.fromEntries(definition.fields.map((field) => [field.name, '']));

/** What the form's own inputs hold, read as the browser would submit them (so any kind of input reads right). */
function valuesIn(form: HTMLFormElement, definition: FormDefinition): Values {
  const data = new FormData(form);
  return Object.fromEntries(
    definition.fields.map((field) => {
      const value = data.get(field.name);
      return [field.name, typeof value === 'string' ? value : ''];
    }),
  );
}

/** A fresh key per submission attempt; randomUUID needs a secure context, so fall back to random bytes. */
function attemptKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  );
}

type TextAreaProps = {
  id: string;
  label: string;
  error?: string;
  required: boolean;
} & Omit<React.TextareaHTMLAttributes<HTMLTextAreaElement>, 'size'> & { size?: 'md' };

/** Mantine's Textarea brings an autosize library along; a wrapped plain textarea looks the same. */
function TextArea({ id, label, error, required, size, ...rest }: TextAreaProps) {
  return (
    <Input.Wrapper id={id} label={label} error={error} required={required} size={size}>
      <Input component="textarea" id={id} rows={4} required={required} error={error} size={size} {...rest} />
    </Input.Wrapper>
  );
}

type FieldProps = {
  field: FormField;
  id: string;
  value: string;
  error: string | undefined;
  onValue: (name: string, value: string) => void;
};

/** One field of a lead form, re-rendered only when its own value or error changes. */
const Field = memo(function Field({ field, id, value, error, onValue }: FieldProps) {
  const props = {
    id,
    name: field.name,
    label: field.label,
    required: field.required,
    // <select> takes neither placeholder nor maxlength, and a date input no maxlength (invalid HTML otherwise).
    placeholder: field.type === 'select' ? undefined : field.placeholder,
    autoComplete: field.autocomplete,
    maxLength: field.type === 'select' || field.type === 'date' ? undefined : maxLengthOf(field),
    pattern: field.type === 'tel' ? PHONE_PATTERN : undefined,
    // The browser adds a pattern field's title to its own "match the requested format" message (no JavaScript).
    title: field.type === 'tel' ? field.invalidMessage : undefined,
    value,
    error,
    size: 'md' as const,
    onChange: (event: { currentTarget: { value: string } }) => onValue(field.name, event.currentTarget.value),
  };
  switch (field.type) {
    case 'select':
      return (
        <NativeSelect {...props}>
          <option value="" disabled={field.required}>
            {field.placeholder ?? ''}
          </option>
          {field.options?.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </NativeSelect>
      );
    case 'textarea':
      return <TextArea {...props} />;
    default:
      return <TextInput type={field.type} {...props} />;
  }
});

/** The submit button, the failure message and the privacy note: not re-rendered as the visitor types. */
const FormEnd = memo(function FormEnd({
  definition,
  submitting,
  failed,
}: {
  definition: FormDefinition;
  submitting: boolean;
  failed: boolean;
}) {
  const { site } = useSite();
  return (
    <>
      {/* Disabled in look and to assistive technology, yet focusable: a disabled button would drop the focus. */}
      <Button
        type="submit"
        size="lg"
        data-disabled={submitting || undefined}
        aria-disabled={submitting || undefined}
        leftSection={submitting ? <Loader size="xs" color="currentColor" aria-hidden /> : undefined}
        fullWidth
      >
        {submitting ? definition.submittingLabel : definition.submitLabel}
      </Button>
      {/* Always in the page, so that screen readers announce the message when it appears in it. */}
      <div role="alert" className="form-failure">
        {failed && (
          <>
            <strong>{definition.failure.title}</strong> <RichText text={definition.failure.text} />{' '}
            <RichText text={site.labels.formFailureCall} />
          </>
        )}
      </div>
      {definition.privacyNote && (
        <Text size="sm" c="dimmed">
          <RichText text={definition.privacyNote} />
        </Text>
      )}
    </>
  );
});

type Props = {
  formId: string;
  definition: FormDefinition;
  /** Called after the lead is stored (a dialog closes itself here). */
  onSuccess?: () => void;
  /** Starts the id of each field; unique on the page, so the same form in a dialog and in the page never clash. */
  idPrefix?: string;
};

/**
 * A lead form rendered from its definition. Without JavaScript it is a plain POST to the form API (the browser's own
 * required/type checks apply); after hydration it validates with the same rules as the server and sends JSON.
 */
export function LeadForm({ formId, definition, onSuccess, idPrefix = `${formId}-` }: Props) {
  const source = useLocation({ select: (location) => location.pathname });
  const { site } = useSite();
  const [values, setValues] = useState<Values>(() => emptyValues(definition));
  const [errors, setErrors] = useState<Values>({});
  const [submitting, setSubmitting] = useState(false);
  // Shown inside the form, not in a toast: a toast sits outside an open modal dialog, where it is inert and dimmed.
  const [failed, setFailed] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const honeypotRef = useRef<HTMLInputElement>(null);
  // The same key while the values stay the same: a retry after a lost answer cannot store the lead twice.
  const keyRef = useRef<string | undefined>(undefined);

  // The server-rendered inputs are live before the code runs, and a visitor on a slow phone types into them. Hydration
  // keeps what they hold, but the state starts empty, and the next render would write that over every input. So at
  // hydration's commit, before the browser handles another event, the state takes the inputs' values; the inputs are
  // then left as they are, with the focus and the caret where the visitor left them.
  // The same once the whole page is hydrated: until then the browser alone gets the visitor's key presses
  // (renderer/shell/hydration-gate.ts), so what is typed after this form hydrates is in the inputs only.
  // At once, as a layout effect's update is, so the next event (a tap on the button) sees them.
  useLayoutEffect(() => {
    const typed = () => {
      const found = formRef.current ? valuesIn(formRef.current, definition) : {};
      return Object.values(found).some(Boolean) ? found : undefined;
    };
    const atHydration = typed();
    if (atHydration) setValues(atHydration);
    if (hydrationGate.isOpen()) return;
    hydrationGate.whenOpen(() => {
      const atOpen = typed();
      if (atOpen) flushSync(() => setValues(atOpen));
    });
  }, [definition]);

  // Our own messages replace the browser's once the script runs; before that, native validation guards the POST.
  useEffect(() => {
    if (formRef.current) formRef.current.noValidate = true;
  }, []);

  const focusFirstError = (found: Values) => {
    const first = definition.fields.find((field) => found[field.name]);
    if (first) document.getElementById(idPrefix + first.name)?.focus();
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    setFailed(false);
    const found = fieldErrors(definition, values);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstError(found);
    setSubmitting(true);
    keyRef.current ??= attemptKey();
    try {
      const response = await fetch(`/api/forms/${formId}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          [IDEMPOTENCY_HEADER]: keyRef.current,
        },
        body: JSON.stringify({ ...values, source, [HONEYPOT_FIELD]: honeypotRef.current?.value ?? '' }),
      });
      if (response.status === 400) {
        // Field errors the visitor can act on; anything else (a stale page, a bad source) is a plain failure.
        const body = (await response.json()) as { errors?: Values };
        const visible = Object.fromEntries(
          Object.entries(body.errors ?? {}).filter(([name]) =>
            definition.fields.some((field) => field.name === name),
          ),
        );
        if (Object.keys(visible).length > 0) {
          setErrors(visible);
          return focusFirstError(visible);
        }
      }
      if (!response.ok) throw new Error(`Form API answered ${response.status}`);
      setValues(emptyValues(definition));
      setErrors({});
      keyRef.current = undefined;
      onSuccess?.();
      void showToast({ title: definition.success.title, message: definition.success.text, color: 'teal' });
    } catch (error) {
      console.error('Form submission failed', error);
      setFailed(true);
    } finally {
      setSubmitting(false);
    }
  }

  // Stable, so that a key press re-renders the one field typed in (Field is memoized), not the whole form: on a slow
  // phone a whole form's render per key press is what made typing lag.
  const onValue = useCallback((name: string, value: string) => {
    keyRef.current = undefined;
    setValues((current) => ({ ...current, [name]: value }));
    setErrors((current) => {
      if (!current[name]) return current;
      const rest = { ...current };
      delete rest[name];
      return rest;
    });
  }, []);

  return (
    <form
      ref={formRef}
      method="post"
      action={`/api/forms/${formId}`}
      onSubmit={submit}
      onFocusCapture={prefetchToasts}
      aria-busy={submitting}
    >
      <input type="hidden" name="source" value={source} />
      {/* Out of sight, out of the tab order and away from autofill: only bots fill it. */}
      <div className="hp-field" aria-hidden="true">
        <label htmlFor={idPrefix + HONEYPOT_FIELD}>{site.labels.honeypot}</label>
        <input
          ref={honeypotRef}
          id={idPrefix + HONEYPOT_FIELD}
          name={HONEYPOT_FIELD}
          type="text"
          tabIndex={-1}
          autoComplete="off"
          defaultValue=""
        />
      </div>
      <Stack gap="md">
        {definition.fields.map((field) => (
          <Field
            key={field.name}
            field={field}
            id={idPrefix + field.name}
            value={values[field.name] ?? ''}
            error={errors[field.name]}
            onValue={onValue}
          />
        ))}
        <FormEnd definition={definition} submitting={submitting} failed={failed} />
      </Stack>
    </form>
  );
}
