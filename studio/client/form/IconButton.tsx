// A button that shows only an icon (↑, ↓, ×, ⧉, ⠿): its name is said by screen readers and shown as a tooltip on
// hover and on keyboard focus, so nobody has to guess what it does. The tooltip is CSS (studio.css), not Mantine's
// Tooltip: the outline draws four of these per block again as staff type, and a floating tooltip each cost the
// preview's keystroke-to-repaint time.
import { ActionIcon, type ActionIconProps } from '@mantine/core';
import type { ComponentPropsWithoutRef } from 'react';

type Props = ActionIconProps &
  Omit<ComponentPropsWithoutRef<'button'>, 'color' | 'style'> & { label: string };

export function IconButton({ label, className, ...props }: Props) {
  return (
    <ActionIcon
      aria-label={label}
      data-tooltip={label}
      className={className ? `studio-icon-button ${className}` : 'studio-icon-button'}
      {...props}
    />
  );
}

/** A dialog's × button: named, with a tooltip like every icon-only button. */
export const CLOSE = { 'aria-label': 'Close', title: 'Close' } as const;
