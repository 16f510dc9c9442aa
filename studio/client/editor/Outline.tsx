// The page's blocks in order: each by its type and heading, with its count of errors. Reordered by dragging, by
// keyboard (space to lift, arrows to move, space to drop: announced to screen readers) or with the move buttons.
import { IconButton } from '../form/IconButton.tsx';
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon, Badge, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { memo } from 'react';
import { blockTypeLabel } from '../../../content/labels.ts';
import { isRecord, type Json } from '../../../content/json-pointer.ts';

export type OutlineProps = {
  blocks: Json[];
  keys: string[];
  selected: number | null;
  errorCount: (index: number) => number;
  select: (index: number) => void;
  move: (from: number, to: number) => void;
  duplicate: (index: number) => void;
  remove: (index: number) => void;
};

export function blockLabel(block: Json | undefined): { type: string; heading: string } {
  const record = isRecord(block) ? block : {};
  const type = typeof record.type === 'string' ? record.type : 'block';
  const heading = ['heading', 'title', 'text'].map((k) => record[k]).find((v) => typeof v === 'string');
  return { type, heading: typeof heading === 'string' ? heading : '' };
}

type ItemProps = Pick<OutlineProps, 'select' | 'move' | 'duplicate' | 'remove'> & {
  id: string;
  index: number;
  block: Json | undefined;
  count: number;
  errors: number;
  selected: boolean;
};

// Memoised on the block's own value: a keystroke in one block's form renders only that block's line again.
const Item = memo(function Item({ id, index, block, count, errors, selected, ...props }: ItemProps) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id });
  const { type, heading } = blockLabel(block);
  return (
    <Group
      ref={setNodeRef}
      wrap="nowrap"
      gap={4}
      data-outline-index={index}
      aria-current={selected ? 'true' : undefined}
      style={{
        transform: CSS.Transform.toString(transform),
        transition,
        opacity: isDragging ? 0.6 : 1,
        border: `2px solid ${selected ? 'var(--mantine-color-blue-6)' : 'var(--mantine-color-gray-3)'}`,
        borderRadius: 6,
        background: 'var(--mantine-color-body)',
      }}
    >
      <IconButton
        variant="subtle"
        color="gray"
        label={`Reorder block ${index + 1}: ${blockTypeLabel(type)}`}
        style={{ cursor: 'grab', touchAction: 'none' }}
        {...attributes}
        {...listeners}
      >
        ⠿
      </IconButton>
      <UnstyledButton
        onClick={() => props.select(index)}
        style={{ flex: 1, minWidth: 0 }}
        p={4}
        data-testid={`outline-${index}`}
      >
        <Text size="xs" c="dimmed">
          {index + 1}. {blockTypeLabel(type)}
        </Text>
        <Text size="sm" truncate>
          {heading || '(no heading)'}
        </Text>
      </UnstyledButton>
      {errors ? (
        <Badge color="red.2" c="dark.9" size="sm" aria-label={`${errors} error${errors === 1 ? '' : 's'}`}>
          {errors}
        </Badge>
      ) : null}
      <ActionIcon.Group>
        <IconButton
          variant="subtle"
          label={`Move block ${index + 1} up`}
          disabled={index === 0}
          onClick={() => props.move(index, index - 1)}
        >
          ↑
        </IconButton>
        <IconButton
          variant="subtle"
          label={`Move block ${index + 1} down`}
          disabled={index === count - 1}
          onClick={() => props.move(index, index + 1)}
        >
          ↓
        </IconButton>
        <IconButton
          variant="subtle"
          label={`Duplicate block ${index + 1}`}
          onClick={() => props.duplicate(index)}
        >
          ⧉
        </IconButton>
        <IconButton
          variant="subtle"
          color="red"
          label={`Remove block ${index + 1}`}
          onClick={() => props.remove(index)}
        >
          ×
        </IconButton>
      </ActionIcon.Group>
    </Group>
  );
});

export const Outline = memo(function Outline(props: OutlineProps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const name = (id: string | number) => {
    const index = props.keys.indexOf(String(id));
    const { type, heading } = blockLabel(props.blocks[index]);
    return `${blockTypeLabel(type)} block “${heading}”`;
  };
  const position = (id: string | number | undefined) => props.keys.indexOf(String(id)) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) =>
      `Picked up ${name(active.id)}, position ${position(active.id)} of ${props.keys.length}.`,
    onDragOver: ({ active, over }) =>
      over ? `${name(active.id)} is over position ${position(over.id)} of ${props.keys.length}.` : undefined,
    onDragEnd: ({ active, over }) =>
      over
        ? `${name(active.id)} dropped at position ${position(over.id)} of ${props.keys.length}.`
        : undefined,
    onDragCancel: ({ active }) => `Moving ${name(active.id)} was cancelled.`,
  };
  const end = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    props.move(props.keys.indexOf(String(active.id)), props.keys.indexOf(String(over.id)));
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={end}
      accessibility={{
        announcements,
        screenReaderInstructions: {
          draggable:
            'To reorder a block, press space to pick it up, the up and down arrows to move it, space again to drop it, or escape to cancel.',
        },
      }}
    >
      <SortableContext items={props.keys} strategy={verticalListSortingStrategy}>
        <Stack
          gap={6}
          component="ol"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
          aria-label="Blocks of the page"
        >
          {props.keys.map((id, index) => (
            <li key={id}>
              <Item
                id={id}
                index={index}
                block={props.blocks[index]}
                count={props.keys.length}
                errors={props.errorCount(index)}
                selected={props.selected === index}
                select={props.select}
                move={props.move}
                duplicate={props.duplicate}
                remove={props.remove}
              />
            </li>
          ))}
        </Stack>
      </SortableContext>
    </DndContext>
  );
});
