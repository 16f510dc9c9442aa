// Every document, pages grouped by folder with title and address, then the site's own documents; a search box
// filters them. The list follows the disk: it is read again every few seconds.
import { Button, NavLink, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { api } from '../api.ts';
import { backend } from '../backend/backend.ts';
import type { SiteLinks } from '../form/form-context.ts';
import type { StudioFile } from '../backend/content-backend.ts';

type Props = {
  files: StudioFile[];
  open: string | undefined;
  choose: (file: string) => void;
  newPage: () => void;
};

const folderOf = (f: StudioFile) =>
  f.kind !== 'page' ? 'Site' : f.file.split('/').length > 2 ? (f.file.split('/')[1] ?? '') : 'Top level';

export function FileList({ files, open, choose, newPage }: Props) {
  const [query, setQuery] = useState('');
  const groups = useMemo(() => {
    const q = query.trim().toLowerCase();
    const shown = files.filter((f) => !q || `${f.title} ${f.path ?? ''} ${f.file}`.toLowerCase().includes(q));
    const map = new Map<string, StudioFile[]>();
    for (const f of shown) map.set(folderOf(f), [...(map.get(folderOf(f)) ?? []), f]);
    return [...map];
  }, [files, query]);
  return (
    <Stack gap="xs" h="100%">
      <Button size="xs" onClick={newPage}>
        New page
      </Button>
      <TextInput
        size="xs"
        label="Find a document"
        placeholder="Title or address"
        value={query}
        onChange={(e) => setQuery(e.currentTarget.value)}
      />
      <ScrollArea style={{ flex: 1 }}>
        <nav aria-label="Documents">
          {groups.map(([folder, list]) => (
            <div key={folder}>
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" mt="sm">
                {folder}
              </Text>
              {list.map((f) => (
                <NavLink
                  key={f.file}
                  component="button"
                  active={f.file === open}
                  label={f.title}
                  description={
                    f.broken
                      ? `${f.path ?? f.file}: broken at line ${f.broken.line}, column ${f.broken.column}`
                      : (f.path ?? f.file)
                  }
                  color={f.broken ? 'red' : undefined}
                  data-broken={f.broken ? '' : undefined}
                  data-file={f.file}
                  onClick={() => choose(f.file)}
                />
              ))}
            </div>
          ))}
        </nav>
      </ScrollArea>
    </Stack>
  );
}

const FILES_POLL_MS = 3000;

/** The documents, read again every few seconds (the list follows the disk), and the site's pages and anchors. */
export function useFileList() {
  const [files, setFiles] = useState<StudioFile[]>([]);
  const [links, setLinks] = useState<SiteLinks>({ pages: [], redirects: [] });
  const refreshFiles = useCallback(
    () =>
      void backend
        .list()
        .then(setFiles)
        .catch(() => undefined),
    [],
  );
  useEffect(() => {
    refreshFiles();
    void api.links().then(setLinks);
    const timer = setInterval(refreshFiles, FILES_POLL_MS);
    return () => clearInterval(timer);
  }, [refreshFiles]);
  /** After a write: the list and the links again. */
  const refresh = useCallback(() => {
    refreshFiles();
    void api.links().then(setLinks);
  }, [refreshFiles]);
  return { files, links, refresh };
}
