// Two layout pieces styled by renderer/styles/layout.css instead of Mantine's SimpleGrid and ThemeIcon: SimpleGrid's
// responsive columns write <style> elements into <body> (invalid HTML), and ThemeIcon leaks radius/color attributes.
import { Children, type CSSProperties, type ReactNode } from 'react';

type Cols = { base?: number; xs?: number; sm?: number; md?: number; lg?: number };
const BREAKPOINTS = ['base', 'xs', 'sm', 'md', 'lg'] as const;

/**
 * A responsive grid: columns per breakpoint (xs 36em, sm 48em, md 62em, lg 75em), each falling back to the last.
 * Where the last row would hold one item of several columns (three cards in two columns), that item sits in the
 * middle of its row, as wide as the others: `data-lone` names those breakpoints for renderer/styles/layout.css.
 */
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
  const count = Children.toArray(children).length;
  const style: Record<string, string> = {};
  const lone: string[] = [];
  let columns = 1;
  for (const breakpoint of BREAKPOINTS) {
    columns = cols[breakpoint] ?? columns;
    style[`--cols-${breakpoint}`] = String(columns);
    if (columns > 1 && count > 1 && count % columns === 1) lone.push(breakpoint);
  }
  return (
    <Component
      className={className ? `grid ${className}` : 'grid'}
      data-spacing={spacing}
      data-lone={lone.length > 0 ? lone.join(' ') : undefined}
      style={style as CSSProperties}
    >
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
