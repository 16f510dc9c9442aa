// The form generator: one field for one schema, recursing into objects, lists and variants. Every keyword the
// content schemas use has its place here or in leaf-fields.tsx (schema/keywords.ts lists how each is handled).
import { IconButton } from './IconButton.tsx';
import { Alert, Button, Fieldset, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { memo } from 'react';
import { defaultValue } from '../schema/defaults.ts';
import { isRecord, join, type Json } from '../../../content/json-pointer.ts';
import {
  canAddItem,
  fieldKind,
  propertyFields,
  variantLabel,
  variantOf,
  variantsOf,
} from '../schema/fields.ts';
import { moveItem } from '../schema/list.ts';
import { child, type Node } from '../schema/schemas.ts';
import { useDraftAt } from '../editor/document-store.ts';
import { labelOf, useForm } from './form-context.ts';
import { BooleanField, EnumField, errorText, LinkField, NumberField, TextField } from './leaf-fields.tsx';

export type FieldProps = {
  node: Node;
  pointer: string;
  label: string;
  value: unknown;
  required: boolean;
  /** Properties this form leaves to another part of the studio (a page's blocks are the outline). */
  skip?: readonly string[];
};

// Memoised: a keystroke renders again the field it changed (and the groups holding it), not the whole form.
export const SchemaField = memo(function SchemaField(fieldProps: FieldProps) {
  const { change, store } = useForm();
  const props = { ...fieldProps, value: useDraftAt(store, fieldProps.pointer, fieldProps.value) };
  const { schema } = props.node;
  const set = (value: unknown) => change(props.pointer, value, props.label);
  switch (fieldKind(schema)) {
    case 'fixed':
      return null; // A fixed value: a block's type, shown in its heading.
    case 'variants':
      return <OneOfField {...props} />;
    case 'select':
      return <EnumField {...props} schema={schema} change={set} />;
    case 'link':
      return <LinkField {...props} schema={schema} change={set} />;
    case 'text':
      return <TextField {...props} schema={schema} change={set} />;
    case 'number':
      return <NumberField {...props} schema={schema} change={set} />;
    case 'switch':
      return <BooleanField {...props} schema={schema} change={set} />;
    case 'list':
      return <ArrayField {...props} />;
    case 'map':
      return <MapField {...props} />;
    case 'group':
      return <ObjectField {...props} />;
    case 'none':
      return <Text c="red">No form for this value ({String(schema.type)})</Text>;
  }
});

function GroupErrors({ pointer }: { pointer: string }) {
  const { errorsAt } = useForm();
  const message = errorText(errorsAt(pointer));
  return message ? (
    <Alert color="red" variant="light" p="xs" data-pointer={pointer} role="note">
      {message}
    </Alert>
  ) : null;
}

export function ObjectFields({ node, pointer, value, skip = [] }: Omit<FieldProps, 'label' | 'required'>) {
  const { change } = useForm();
  const record = isRecord(value) ? value : {};
  return (
    <Stack gap="sm">
      <GroupErrors pointer={pointer} />
      {propertyFields(node, skip).map(({ name, node: property, required: isRequired, container }) => {
        const at = join(pointer, name);
        const present = name in record;
        if (container && !present && !isRequired)
          return (
            <Group key={name} gap="xs">
              <Button
                size="compact-sm"
                variant="light"
                onClick={() => change(at, defaultValue(property), `add ${name}`)}
              >
                Add {labelOf(name).toLowerCase()}
              </Button>
              <Text size="xs" c="dimmed">
                {typeof property.schema.description === 'string' ? property.schema.description : ''}
              </Text>
            </Group>
          );
        return (
          <div key={name}>
            <SchemaField
              node={property}
              pointer={at}
              label={labelOf(name)}
              value={record[name]}
              required={isRequired}
            />
            {container && !isRequired ? (
              <Button
                size="compact-xs"
                variant="subtle"
                color="red"
                onClick={() => change(at, undefined, `remove ${name}`)}
              >
                Remove {labelOf(name).toLowerCase()}
              </Button>
            ) : null}
          </div>
        );
      })}
    </Stack>
  );
}

function ObjectField(props: FieldProps) {
  return (
    <Fieldset legend={props.label} variant="filled" data-pointer={props.pointer}>
      {typeof props.node.schema.description === 'string' ? (
        <Text size="xs" c="dimmed" mb="xs">
          {props.node.schema.description}
        </Text>
      ) : null}
      <ObjectFields {...props} />
    </Fieldset>
  );
}

function itemName(label: string) {
  return label.replace(/s$/, '').toLowerCase();
}

function ArrayField({ node, pointer, label, value }: FieldProps) {
  const { change } = useForm();
  const list = Array.isArray(value) ? (value as Json[]) : [];
  const items = child(node, node.schema.items);
  if (!items) return null;
  const singular = itemName(label);
  return (
    <Fieldset legend={`${label} (${list.length})`} variant="default" data-pointer={pointer}>
      {typeof node.schema.description === 'string' ? (
        <Text size="xs" c="dimmed" mb="xs">
          {node.schema.description}
        </Text>
      ) : null}
      <GroupErrors pointer={pointer} />
      <Stack gap="xs">
        {list.map((item, i) => (
          <Group key={i} align="flex-start" wrap="nowrap" gap="xs">
            <div style={{ flex: 1, minWidth: 0 }}>
              <SchemaField
                node={items}
                pointer={join(pointer, i)}
                label={`${labelOf(singular)} ${i + 1}`}
                value={item}
                required
              />
            </div>
            <Stack gap={2} pt={24}>
              <IconButton
                variant="subtle"
                label={`Move ${singular} ${i + 1} up`}
                disabled={i === 0}
                onClick={() => change(pointer, moveItem(list, i, i - 1), `move ${singular}`)}
              >
                ↑
              </IconButton>
              <IconButton
                variant="subtle"
                label={`Move ${singular} ${i + 1} down`}
                disabled={i === list.length - 1}
                onClick={() => change(pointer, moveItem(list, i, i + 1), `move ${singular}`)}
              >
                ↓
              </IconButton>
              <IconButton
                variant="subtle"
                color="red"
                label={`Remove ${singular} ${i + 1}`}
                onClick={() =>
                  change(
                    pointer,
                    list.filter((_, k) => k !== i),
                    `remove ${singular}`,
                  )
                }
              >
                ×
              </IconButton>
            </Stack>
          </Group>
        ))}
        {!canAddItem(node.schema, list.length) ? null : (
          <Button
            size="compact-sm"
            variant="light"
            onClick={() => change(pointer, [...list, defaultValue(items)], `add ${singular}`)}
          >
            Add {singular}
          </Button>
        )}
      </Stack>
    </Fieldset>
  );
}

function OneOfField({ node, pointer, label, value }: FieldProps) {
  const { change } = useForm();
  const variants = variantsOf(node);
  const current = variantOf(variants, value);
  const chosen = variants[current];
  if (!chosen) return null;
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <SegmentedControl
          size="xs"
          aria-label={`Kind of ${label.toLowerCase()}`}
          value={String(current)}
          data={variants.map((v, i) => ({ value: String(i), label: variantLabel(v) }))}
          onChange={(i) => {
            const next = variants[Number(i)];
            if (next) change(pointer, defaultValue(next), `change ${label.toLowerCase()}`);
          }}
        />
      </Group>
      {chosen.schema.type === 'object' ? (
        <ObjectFields node={chosen} pointer={pointer} value={value} />
      ) : (
        <SchemaField node={chosen} pointer={pointer} label={label} value={value} required />
      )}
    </Stack>
  );
}

/** additionalProperties with a schema: named entries, such as a menu's links by key. */
function MapField({ node, pointer, label, value }: FieldProps) {
  const { change } = useForm();
  const record = isRecord(value) ? value : {};
  const entry = child(node, node.schema.additionalProperties);
  if (!entry) return null;
  return (
    <Fieldset legend={label} data-pointer={pointer}>
      <GroupErrors pointer={pointer} />
      <Stack gap="xs">
        {Object.entries(record).map(([key, item]) => (
          <Group key={key} align="flex-start" wrap="nowrap">
            <TextInput
              label="Name"
              defaultValue={key}
              w={140}
              onBlur={(e) => {
                const name = e.currentTarget.value;
                if (name === key || name === '') return;
                const renamed = Object.fromEntries(
                  Object.entries(record).map(([k, v]) => [k === key ? name : k, v]),
                );
                change(pointer, renamed, `rename ${key}`);
              }}
            />
            <div style={{ flex: 1 }}>
              <SchemaField
                node={entry}
                pointer={join(pointer, key)}
                label={labelOf(key)}
                value={item}
                required
              />
            </div>
            <IconButton
              mt={24}
              variant="subtle"
              color="red"
              label={`Remove ${key}`}
              onClick={() => change(join(pointer, key), undefined)}
            >
              ×
            </IconButton>
          </Group>
        ))}
        <Button
          size="compact-sm"
          variant="light"
          onClick={() =>
            change(join(pointer, `new-${Object.keys(record).length + 1}`), defaultValue(entry), 'add entry')
          }
        >
          Add entry
        </Button>
      </Stack>
    </Fieldset>
  );
}
