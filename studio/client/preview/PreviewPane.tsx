// The draft as visitors get it, at phone size (390 × 844) and desktop size side by side, each drawn by the site's
// renderer in its own frame and scaled to fit the width the pane has (a 1280 px laptop shows both whole). Every change
// is posted to the frames as it happens: a keystroke from the document store, before the editor renders anything again.
import { Badge, Group, Paper, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import type { DocumentStore } from '../editor/document-store.ts';
import { isRecord, type Json } from '../../../content/json-pointer.ts';
import type { FromPreview, ToPreview } from './messages.ts';

// Same origin as the editor. (Loading them from the studio's other name put them in their own process and halved
// the preview's latency, but pointer clicks into the scaled cross-process frames did not reach the blocks in tests.)
const previewOrigin = location.origin;

type Props = {
  /** The open document: the page shown, or (with `page`) the site document it is shown with. */
  store: DocumentStore;
  /** The page shown with the site document being edited. */
  page?: Json;
  path: string;
  selected: number | null;
  select: (index: number) => void;
};

const FRAMES = [
  { name: 'Phone', width: 390, height: 844 },
  { name: 'Desktop', width: 1280, height: 800 },
] as const;
const GAP = 16;
/** At most this wide on screen (the size before the layout fitted 1280 px); the phone takes this share of the width. */
const MOST = { Phone: 240, Desktop: 520 } as const;
const PHONE_SHARE = 0.28;

/** How wide each frame is shown in `width` pixels: both whole, side by side. */
export function shownWidths(width: number): { Phone: number; Desktop: number } {
  const room = Math.max(0, width - GAP);
  const phone = Math.min(MOST.Phone, Math.floor(room * PHONE_SHARE));
  return { Phone: phone, Desktop: Math.min(MOST.Desktop, room - phone) };
}

export function PreviewPane({ store, page, path, selected, select }: Props) {
  const frames = useRef<(HTMLIFrameElement | null)[]>([]);
  const [fold, setFold] = useState<boolean | null>(null);
  const lastSelected = useRef<number | null>(null);
  const message = useRef<ToPreview | undefined>(undefined);
  const pane = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(MOST.Phone + MOST.Desktop + GAP);
  useEffect(() => {
    const element = pane.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const shown = shownWidths(width);

  useEffect(() => {
    const post = () => {
      const draft = store.current();
      if (!draft) return;
      const reveal = lastSelected.current !== selected;
      lastSelected.current = selected;
      const shown = page ?? draft.doc;
      const blocks = isRecord(page) && Array.isArray(page.blocks) ? page.blocks : [];
      const keys = page ? blocks.map((_, i) => `page-${i}`) : draft.keys;
      message.current = { type: 'draft', doc: shown, keys, path, selected, reveal };
      if (page) message.current.site = draft.doc;
      for (const frame of frames.current) frame?.contentWindow?.postMessage(message.current, previewOrigin);
    };
    post();
    return store.subscribe(post);
  }, [store, page, path, selected]);

  useEffect(() => {
    const listen = (event: MessageEvent<FromPreview>) => {
      if (event.origin !== previewOrigin) return;
      const source = frames.current.find((f) => f?.contentWindow === event.source);
      if (!source) return;
      if (event.data.type === 'ready' && message.current)
        source.contentWindow?.postMessage({ ...message.current, reveal: true }, previewOrigin);
      if (event.data.type === 'select') select(event.data.index);
      if (event.data.type === 'fold') setFold(event.data.ctaOnFirstScreen);
    };
    addEventListener('message', listen);
    return () => removeEventListener('message', listen);
  }, [select]);

  return (
    <div ref={pane} data-testid="preview-pane">
      <Group gap="xs" mb="xs">
        <Text fw={600} size="sm">
          Preview
        </Text>
        {fold === null ? (
          <Badge color="gray.2" c="dark.9">
            No call-to-action on the page
          </Badge>
        ) : fold ? (
          <Badge color="green.2" c="dark.9" data-testid="fold-marker">
            First call-to-action is on the phone’s first screen
          </Badge>
        ) : (
          <Badge color="orange.2" c="dark.9" data-testid="fold-marker">
            First call-to-action is below the phone’s first screen
          </Badge>
        )}
      </Group>
      <Group align="flex-start" gap={GAP} wrap="nowrap">
        {FRAMES.map((f, i) => {
          const scale = shown[f.name] / f.width;
          return (
            <Paper
              key={f.name}
              withBorder
              style={{ width: shown[f.name], height: f.height * scale, overflow: 'hidden', flex: 'none' }}
            >
              <iframe
                ref={(el) => {
                  frames.current[i] = el;
                }}
                title={`${f.name} preview (${f.width} × ${f.height})`}
                data-testid={`preview-${f.name.toLowerCase()}`}
                src={`preview.html?path=${encodeURIComponent(path)}`}
                width={f.width}
                height={f.height}
                style={{ border: 0, transform: `scale(${scale})`, transformOrigin: '0 0' }}
              />
            </Paper>
          );
        })}
      </Group>
    </div>
  );
}
