// The site document's preview: a page of the site (the home page unless staff pick another) drawn by the renderer
// with the draft header, footer and phone lines, at phone and desktop width like a page's own preview.
import { Select, Stack } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { StudioFile } from '../backend/content-backend.ts';
import { backend } from '../backend/backend.ts';
import type { DocumentStore } from '../editor/document-store.ts';
import type { Json } from '../../../content/json-pointer.ts';
import { PreviewPane } from './PreviewPane.tsx';

const HOME = 'pages/index.json';
const selectNothing = () => undefined;

export function SitePreview({ store, files }: { store: DocumentStore; files: StudioFile[] }) {
  const [file, setFile] = useState(HOME);
  const [page, setPage] = useState<{ file: string; doc: Json }>();
  useEffect(() => {
    let current = true;
    void backend.load(file).then(({ text }) => {
      if (current) setPage({ file, doc: JSON.parse(text) as Json });
    });
    return () => {
      current = false;
    };
  }, [file]);
  const pages = files.filter((f) => f.kind === 'page');
  return (
    <Stack gap="xs">
      <Select
        label="Page shown with this site document"
        size="xs"
        searchable
        data={pages.map((p) => ({ value: p.file, label: `${p.title} (${p.path ?? ''})` }))}
        value={file}
        onChange={(chosen) => chosen && setFile(chosen)}
      />
      {page?.file === file ? (
        <PreviewPane
          store={store}
          page={page.doc}
          path={pages.find((p) => p.file === file)?.path ?? '/'}
          selected={null}
          select={selectNothing}
        />
      ) : null}
    </Stack>
  );
}
