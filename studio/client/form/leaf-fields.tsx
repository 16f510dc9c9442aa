// The inputs at the leaves of a generated form: text (with its printed preview), links with a picker, icons drawn
// as icons, selects, numbers, switches and dates. Each shows its schema description as help and the build's errors.
import { Autocomplete, Button, Group, NumberInput, Select, Switch, Textarea, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { icons } from '../../../renderer/icons.ts';
import { characterCounter, enumOptions, helpText, numberBounds, textInputType } from '../schema/fields.ts';
import type { Schema } from '../schema/schemas.ts';
import { applyFix, fixesValue, useForm, type FieldError } from './form-context.ts';
import { TextPreview } from './TextPreview.tsx';

export type LeafProps = {
  schema: Schema;
  pointer: string;
  label: string;
  value: unknown;
  required: boolean;
  change: (value: unknown) => void;
};

export function errorText(errors: FieldError[]): string | undefined {
  return errors.length ? errors.map((e) => e.message).join('; ') : undefined;
}

/** A button per fix of the build's problems at a field, which applies it. */
function Suggestions({
  errors,
  value,
  change,
}: {
  errors: FieldError[];
  value: unknown;
  change: (v: unknown) => void;
}) {
  const offered = errors.flatMap((e) =>
    fixesValue(e.fix) && e.suggestion !== undefined ? [{ ...e, fix: e.fix, suggestion: e.suggestion }] : [],
  );
  if (!offered.length) return null;
  return (
    <Group gap="xs" mt={4}>
      {offered.map((e) => (
        <Button
          key={e.message}
          size="compact-xs"
          variant="light"
          onClick={() => change(applyFix(value, e.fix))}
        >
          Use “{e.suggestion}”
        </Button>
      ))}
    </Group>
  );
}

const help = (schema: Schema, extra?: string): ReactNode => helpText(schema, extra);

const inputProps = (p: LeafProps, errors: FieldError[]) => ({
  label: p.label,
  description: help(p.schema),
  error: errorText(errors),
  withAsterisk: p.required,
  'data-pointer': p.pointer,
});

/** Empty optional text means the property is absent, not an empty string. */
const textValue = (p: LeafProps, text: string) => (text === '' && !p.required ? undefined : text);

export function TextField(p: LeafProps) {
  const { errorsAt } = useForm();
  const errors = errorsAt(p.pointer);
  const value = typeof p.value === 'string' ? p.value : '';
  const counter = characterCounter(p.schema, value);
  const long = p.schema.title === 'Text' || value.length > 60;
  const props = { ...inputProps(p, errors), description: help(p.schema, counter), value };
  return (
    <div>
      {long ? (
        <Textarea
          {...props}
          autosize
          minRows={1}
          maxRows={8}
          onChange={(e) => p.change(textValue(p, e.currentTarget.value))}
        />
      ) : (
        <TextInput
          {...props}
          type={textInputType(p.schema)}
          onChange={(e) => p.change(textValue(p, e.currentTarget.value))}
        />
      )}
      <TextPreview text={value} />
      <Suggestions errors={errors} value={p.value} change={p.change} />
    </div>
  );
}

export function LinkField(p: LeafProps) {
  const { errorsAt, links } = useForm();
  const errors = errorsAt(p.pointer);
  const targets = [
    ...links.pages.flatMap((page) => [
      page.path,
      ...page.anchors.map((a) => `${page.path === '/' ? '/' : page.path}#${a}`),
    ]),
    ...links.redirects.map((r) => r.from),
    '{phone}',
  ];
  const value = typeof p.value === 'string' ? p.value : '';
  const shown = targets.filter((t) => t.includes(value)).slice(0, 50);
  return (
    <div>
      <Autocomplete
        {...inputProps(p, errors)}
        value={value}
        data={[...new Set(shown)]}
        limit={50}
        onChange={(text) => p.change(textValue(p, text))}
      />
      <Suggestions errors={errors} value={p.value} change={p.change} />
    </div>
  );
}

export function EnumField(p: LeafProps) {
  const { errorsAt } = useForm();
  const errors = errorsAt(p.pointer);
  const options = enumOptions(p.schema);
  const isIcon = p.schema.title === 'IconName';
  const Icon = isIcon && typeof p.value === 'string' ? icons[p.value as keyof typeof icons] : undefined;
  return (
    <div>
      <Select
        {...inputProps(p, errors)}
        value={p.value === undefined ? null : JSON.stringify(p.value)}
        data={options}
        clearable={!p.required}
        searchable={options.length > 8}
        leftSection={Icon ? <Icon size={18} aria-hidden /> : undefined}
        renderOption={
          isIcon
            ? ({ option }) => {
                const OptionIcon = icons[JSON.parse(option.value) as keyof typeof icons];
                return (
                  <Group gap="xs">
                    {OptionIcon ? <OptionIcon size={18} aria-hidden /> : null}
                    {option.label}
                  </Group>
                );
              }
            : undefined
        }
        onChange={(chosen) => p.change(chosen === null ? undefined : JSON.parse(chosen))}
      />
      <Suggestions errors={errors} value={p.value} change={p.change} />
    </div>
  );
}

export function NumberField(p: LeafProps) {
  const { errorsAt } = useForm();
  return (
    <NumberInput
      {...inputProps(p, errorsAt(p.pointer))}
      value={typeof p.value === 'number' ? p.value : ''}
      {...numberBounds(p.schema)}
      onChange={(n) => p.change(typeof n === 'number' ? n : p.required ? 0 : undefined)}
    />
  );
}

export function BooleanField(p: LeafProps) {
  const { errorsAt } = useForm();
  return (
    <Switch
      label={p.label}
      description={help(p.schema)}
      error={errorText(errorsAt(p.pointer))}
      checked={p.value === true}
      data-pointer={p.pointer}
      onChange={(e) => p.change(e.currentTarget.checked)}
    />
  );
}
