// A changed page before and after, in place on the review (issue #28, item 4): the page as visitors see it now and as
// the change set would make it (GET /content/changes/<id>/render, the real renderer), each in a frame of its own. On a
// wide column both side by side, drawn at desktop width and scaled to fit, as the studio's preview does; on a phone one
// at a time, at phone width, with a before/after switch. A frame is made only when its place comes near the screen: a
// set of 20 pages must not ask the server to render 40 pages at once. The frames are sandboxed (no scripts, an origin
// of their own) and titled for screen readers; the server lets only this origin frame them (staff-headers.ts).
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { renderHref } from './content-api.ts';

export type Side = 'before' | 'after';

export const SIDE_WORDS: Readonly<Record<Side, string>> = {
  before: 'Before (live now)',
  after: 'After (with this change set)',
};

/** The phone's switch, short enough for both to sit on one line (the group's name says which page). */
const SWITCH_WORDS: Readonly<Record<Side, string>> = { before: 'Before', after: 'After' };

/** The column's width from which both sides show side by side. */
export const SIDE_BY_SIDE_FROM = 640;
const GAP = 16;
/** The size each side is drawn at: a desktop side by side, a phone one at a time. */
const DESKTOP = { width: 1280, height: 1100 };
const PHONE = { width: 390, height: 844 };
/** How far from the screen a frame's place may be when it is made. */
const NEAR = '300px 0px';

export interface SidesLayout {
  sideBySide: boolean;
  /** The size the page is drawn at, before scaling. */
  frame: { width: number; height: number };
  /** On screen: the drawn size times this. */
  scale: number;
}

/** How the sides fit a column `width` pixels wide. */
export function sidesLayout(width: number): SidesLayout {
  if (width >= SIDE_BY_SIDE_FROM) {
    const each = Math.floor((width - GAP) / 2);
    return { sideBySide: true, frame: DESKTOP, scale: each / DESKTOP.width };
  }
  return { sideBySide: false, frame: PHONE, scale: Math.min(1, width / PHONE.width) };
}

/** True once the element has come near the screen (and from then on); at once where IntersectionObserver is missing. */
function useNearScreen<T extends Element>(): [React.RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || near) return;
    if (typeof IntersectionObserver === 'undefined') return void setNear(true);
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: NEAR },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return [ref, near];
}

/** The column's width, as it changes (0 until measured). */
function useWidth<T extends Element>(): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

export function RenderedSides({
  id,
  file,
  sides,
}: {
  id: string;
  /** `pages/....json`. */
  file: string;
  /** The sides that exist: no before for a new page, no after for a deleted one. */
  sides: readonly Side[];
}) {
  const [column, width] = useWidth<HTMLDivElement>();
  const [place, near] = useNearScreen<HTMLDivElement>();
  const [shown, setShown] = useState<Side>(sides.includes('after') ? 'after' : 'before');
  const layout = sidesLayout(width);
  const visible = layout.sideBySide ? sides : sides.filter((side) => side === shown);
  const height = Math.ceil(layout.frame.height * layout.scale);
  const page = file.replace(/^pages\//, '/').replace(/(\/index)?\.json$/, '') || '/';
  return (
    <div ref={column}>
      {width > 0 && !layout.sideBySide && sides.length === 2 && (
        <Group gap="xs" mb="xs" role="group" aria-label={`Show ${page} before or after`}>
          {sides.map((side) => (
            <Button
              key={side}
              size="xs"
              variant={shown === side ? 'filled' : 'default'}
              aria-pressed={shown === side}
              onClick={() => setShown(side)}
            >
              {SWITCH_WORDS[side]}
            </Button>
          ))}
        </Group>
      )}
      <div ref={place} style={{ display: 'flex', gap: GAP, minHeight: width > 0 ? height : undefined }}>
        {width > 0 &&
          visible.map((side) => (
            <Stack key={side} gap={4} style={{ flex: 'none', width: layout.frame.width * layout.scale }}>
              {layout.sideBySide && (
                <Text size="sm" fw={600}>
                  {SIDE_WORDS[side]}
                </Text>
              )}
              <Paper withBorder style={{ height, overflow: 'hidden' }}>
                {near ? (
                  <iframe
                    title={`${page}, ${SIDE_WORDS[side].toLowerCase()}`}
                    src={renderHref(id, file, side)}
                    loading="lazy"
                    sandbox=""
                    width={layout.frame.width}
                    height={layout.frame.height}
                    style={{
                      border: 0,
                      display: 'block',
                      transform: `scale(${layout.scale})`,
                      transformOrigin: '0 0',
                    }}
                  />
                ) : (
                  <Text size="sm" p="sm">
                    Shown when you scroll to it.
                  </Text>
                )}
              </Paper>
            </Stack>
          ))}
      </div>
    </div>
  );
}
