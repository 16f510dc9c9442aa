// Two layout pieces styled by site.css instead of Mantine's SimpleGrid and ThemeIcon: SimpleGrid's responsive
// columns write <style> elements into <body> (invalid HTML), and ThemeIcon leaks radius/color attributes.
import type { CSSProperties, ReactNode } from 'react';

type Cols = { base?: number; xs?: number; sm?: number; md?: number; lg?: number };

/** A responsive grid: columns per breakpoint (xs 36em, sm 48em, md 62em, lg 75em), each falling back to the last. */
export function Grid({
  cols,
  spacing = 'lg',
  component: Component = 'div',
  className,
  children,
}: {
  cols: Cols;
  spacing?: 'md' | 'lg' | 'xl';
  component?: 'div' | 'dl' | 'ul';
  className?: string;
  children: ReactNode;
}) {
  const style = Object.fromEntries(
    Object.entries(cols).map(([breakpoint, count]) => [`--cols-${breakpoint}`, String(count)]),
  ) as CSSProperties;
  return (
    <Component className={className ? `grid ${className}` : 'grid'} data-spacing={spacing} style={style}>
      {children}
    </Component>
  );
}

/** The icon colour of a card marked critical, high or normal (a card's severity or priority), as its border is. */
export const LEVEL_TONES = { critical: 'danger', high: 'warning', normal: 'brand' } as const;

/** An icon on a soft tinted square or circle. */
export function IconBadge({
  size = 'lg',
  shape = 'square',
  tone = 'brand',
  children,
}: {
  size?: 'sm' | 'md' | 'lg';
  shape?: 'square' | 'round';
  /** brand, or red (danger) and amber (warning) for what is critical or high priority. */
  tone?: 'brand' | 'danger' | 'warning';
  children: ReactNode;
}) {
  return (
    <span className="icon-badge" data-size={size} data-shape={shape} data-tone={tone}>
      {children}
    </span>
  );
}
