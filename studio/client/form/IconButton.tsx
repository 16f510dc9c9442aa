// A button that shows only an icon (↑, ↓, ×, ⧉, ⠿): its name is said by screen readers and shown as a tooltip on
// hover and on keyboard focus, so nobody has to guess what it does.
import { ActionIcon, Tooltip, type ActionIconProps } from '@mantine/core';
import type { ComponentPropsWithoutRef } from 'react';

type Props = ActionIconProps &
  Omit<ComponentPropsWithoutRef<'button'>, 'color' | 'style'> & { label: string };

export function IconButton({ label, ...props }: Props) {
  return (
    <Tooltip label={label} withArrow openDelay={300} events={{ hover: true, focus: true, touch: false }}>
      <ActionIcon aria-label={label} {...props} />
    </Tooltip>
  );
}

/** A dialog's × button: named, with the same tooltip as every icon-only button. */
export const CLOSE = { 'aria-label': 'Close', title: 'Close' } as const;
