// A page's own actions beside its address: put it in a menu of the site (header or footer), or delete it, offering
// a redirect from its address so links and bookmarks keep working. Each asks first, in a dialog.
import { Button, Checkbox, Group, List, Modal, Select, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api.ts';
import { online } from '../backend/backend.ts';
import { CLOSE } from '../form/IconButton.tsx';
import type { SiteLinks } from '../form/form-context.ts';

type Menu = Awaited<ReturnType<typeof api.menus>>[number];
type Props = {
  file: string;
  path: string;
  /** The page's name, the menu link's label by default. */
  name: string;
  version: string;
  /** False while the page has unsaved edits (or is new): deleting or listing it needs the saved page. */
  canAct: boolean;
  pages: SiteLinks['pages'];
  /** After a change: what happened, in words; `next`, the address to open when this page is gone. */
  done: (message: string, next?: string) => void;
};

/** How many of the links lead here, per document, in the order found. */
const linksPerFile = (references: { file: string }[]) => {
  const counts = new Map<string, number>();
  for (const { file } of references) counts.set(file, (counts.get(file) ?? 0) + 1);
  return counts;
};

/** Where a deleted page's address leads by default: its parent page, or the home page. */
const parentOf = (path: string, pages: SiteLinks['pages']) => {
  for (let p = path.slice(0, path.lastIndexOf('/')); p !== ''; p = p.slice(0, p.lastIndexOf('/')))
    if (pages.some((page) => page.path === p)) return p;
  return '/';
};

export function PageActions({ file, path, name, version, canAct, pages, done }: Props) {
  const [dialog, setDialog] = useState<'menu' | 'delete'>();
  const [menus, setMenus] = useState<Menu[]>([]);
  const [menu, setMenu] = useState<string | null>(null);
  const [label, setLabel] = useState(name);
  const [description, setDescription] = useState('');
  const [redirect, setRedirect] = useState(true);
  const [target, setTarget] = useState<string | null>(null);
  const [references, setReferences] = useState<{ file: string; pointer: string }[]>([]);
  const [problem, setProblem] = useState<string>();
  const close = () => {
    setDialog(undefined);
    setProblem(undefined);
  };
  const chosen = menus.find((m) => m.pointer === menu);
  const why = canAct ? undefined : 'Save the page first';

  const openMenus = async () => {
    const all = await api.menus();
    setMenus(all);
    setMenu(all.find((m) => !m.paths.includes(path))?.pointer ?? null);
    setLabel(name);
    setDialog('menu');
  };
  const openDelete = async () => {
    setReferences((await api.references(path)).filter((r) => r.file !== file));
    setTarget(parentOf(path, pages));
    setRedirect(true);
    setDialog('delete');
  };
  const addToMenu = async () => {
    if (!chosen) return;
    const response = await api.addToMenu(chosen.pointer, path, label, description);
    const body = (await response.json()) as { error?: string; errors?: { message: string }[] };
    if (!response.ok) return setProblem(body.error ?? body.errors?.map((e) => e.message).join('; '));
    close();
    done(`Added to ${chosen.title} as “${label}”.`);
  };
  const remove = async () => {
    const to = redirect && target ? target : undefined;
    const response = await api.deletePage(file, version, to);
    const body = (await response.json()) as { error?: string; errors?: { message: string }[] };
    if (!response.ok) return setProblem(body.error ?? body.errors?.map((e) => e.message).join('; '));
    close();
    done(`Deleted ${path}${to ? `; its address now leads to ${to}` : ''}.`, to?.split('#')[0] ?? '/');
  };

  return (
    <Group gap="xs">
      <Button size="xs" variant="light" onClick={() => void openMenus()} disabled={!canAct} title={why}>
        Add to a menu…
      </Button>
      <Button
        size="xs"
        variant="light"
        color="red"
        onClick={() => void openDelete()}
        disabled={!canAct}
        title={why}
      >
        Delete this page…
      </Button>
      <Modal
        opened={dialog === 'menu'}
        onClose={close}
        closeButtonProps={CLOSE}
        title={`Add ${path} to a menu`}
      >
        <Select
          label="Menu"
          data={menus.map((m) => ({
            value: m.pointer,
            label: m.paths.includes(path) ? `${m.title} (already there)` : m.title,
            disabled: m.paths.includes(path),
          }))}
          value={menu}
          onChange={setMenu}
        />
        <TextInput
          mt="sm"
          label="Link text"
          value={label}
          onChange={(e) => setLabel(e.currentTarget.value)}
        />
        {chosen?.describe ? (
          <TextInput
            mt="sm"
            label="Short description (under the link)"
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
          />
        ) : null}
        {problem ? (
          <Text c="red.9" size="sm" mt="sm" role="alert">
            {problem}
          </Text>
        ) : null}
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button disabled={!chosen || label.trim() === ''} onClick={() => void addToMenu()}>
            Add to the menu
          </Button>
        </Group>
      </Modal>
      <Modal opened={dialog === 'delete'} onClose={close} closeButtonProps={CLOSE} title={`Delete ${path}?`}>
        <Text size="sm">
          {online
            ? 'The page is deleted in this change set: visitors still see it until the set is published.'
            : 'The page’s file is removed.'}{' '}
          Visitors who come to {path} can be sent to another page.
        </Text>
        <Checkbox
          mt="sm"
          checked={redirect}
          onChange={(e) => setRedirect(e.currentTarget.checked)}
          label={`Add a redirect from ${path}, so links and bookmarks to it keep working`}
        />
        {redirect ? (
          <Select
            mt="xs"
            label="Send visitors to"
            searchable
            data={pages.filter((p) => p.path !== path).map((p) => p.path)}
            value={target}
            onChange={setTarget}
          />
        ) : null}
        {references.length ? (
          <>
            <Text size="sm" mt="sm">
              {references.length} link{references.length === 1 ? '' : 's'} in other documents point at {path}
              {redirect ? '; the redirect keeps them working' : ' and will lead nowhere'}:
            </Text>
            <List size="xs">
              {/* Each document once, with how many of its links lead here. */}
              {[...linksPerFile(references)].map(([inFile, count]) => (
                <List.Item key={inFile}>
                  {inFile}
                  {count > 1 ? ` (${count} links)` : ''}
                </List.Item>
              ))}
            </List>
          </>
        ) : null}
        {problem ? (
          <Text c="red.9" size="sm" mt="sm" role="alert">
            {problem}
          </Text>
        ) : null}
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={close}>
            Keep the page
          </Button>
          <Button color="red" disabled={redirect && !target} onClick={() => void remove()}>
            Delete the page
          </Button>
        </Group>
      </Modal>
    </Group>
  );
}
