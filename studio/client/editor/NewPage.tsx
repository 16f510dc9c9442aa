// A new page from a template: its address is checked against the address rules, the pages and the redirects before
// anything is made; $schema, phoneLine and sitemap are filled in; it starts empty (a hero to fill in) or as a copy.
import { CLOSE } from '../form/IconButton.tsx';
import { Button, Group, Modal, Select, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { StudioFile } from '../backend/content-backend.ts';
import type { SiteLinks } from '../form/form-context.ts';
import { isRecord, type Json } from '../../../content/json-pointer.ts';
import { blockType } from '../schema/schemas.ts';
import { newBlockFrom } from './Catalogue.tsx';

const SEGMENT = /^[a-z0-9][a-z0-9-]*$/;

export const pageFileOf = (path: string) => (path === '/' ? 'pages/index.json' : `pages${path}.json`);
export const schemaPathFor = (file: string) =>
  `${'../'.repeat(file.split('/').length - 1)}schemas/page.schema.json`;

/** Why an address cannot be a new page, or undefined when it can. */
export function addressProblem(path: string, links: SiteLinks): string | undefined {
  if (!path.startsWith('/')) return 'An address starts with /, such as /services/new-program';
  const segments = path.slice(1).split('/');
  if (path === '/' || segments.some((s) => !SEGMENT.test(s)))
    return 'Use lower-case letters, digits and hyphens between the slashes, with no slash at the end';
  if (links.pages.some((p) => p.path === path)) return `${path} is already a page`;
  const redirect = links.redirects.find((r) => r.from === path);
  if (redirect) return `${path} is an old address that redirects to ${redirect.to}; choose another`;
  return undefined;
}

function emptyPage(file: string): Json {
  const hero = blockType('hero');
  return {
    $schema: schemaPathFor(file),
    title: '',
    name: '',
    description: '',
    keywords: [''],
    sitemap: { changefreq: 'monthly', priority: 0.8 },
    phoneLine: 'primary',
    blocks: hero ? [{ ...(newBlockFrom(hero.example) as Record<string, Json>), heading: '' }] : [],
  };
}

type Props = {
  opened: boolean;
  close: () => void;
  files: StudioFile[];
  links: SiteLinks;
  create: (file: string, doc: Json) => void;
  copyOf: (file: string) => Promise<Json>;
};

export function NewPage({ opened, close, files, links, create, copyOf }: Props) {
  const [path, setPath] = useState('/');
  const [template, setTemplate] = useState<string | null>(null);
  const problem = addressProblem(path, links);
  const pages = files.filter((f) => f.kind === 'page');
  const make = async () => {
    const file = pageFileOf(path);
    const doc = template ? await copyOf(template) : emptyPage(file);
    if (isRecord(doc)) doc.$schema = schemaPathFor(file);
    create(file, doc);
    close();
  };
  return (
    <Modal opened={opened} onClose={close} closeButtonProps={CLOSE} title="New page">
      <TextInput
        label="Address"
        description="Where the page will be, such as /services/family-program"
        value={path}
        onChange={(e) => setPath(e.currentTarget.value)}
        error={path !== '/' ? problem : undefined}
        data-autofocus
      />
      <Select
        mt="sm"
        label="Start from"
        description="Empty (a hero to fill in), or a copy of another page"
        placeholder="Empty page"
        clearable
        searchable
        value={template}
        onChange={setTemplate}
        data={pages.map((p) => ({ value: p.file, label: `${p.title} (${p.path ?? ''})` }))}
      />
      <Text size="xs" c="dimmed" mt="sm">
        It opens as a draft: nothing is written until you save it.
      </Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={close}>
          Cancel
        </Button>
        <Button disabled={problem !== undefined} onClick={() => void make()}>
          Create draft
        </Button>
      </Group>
    </Modal>
  );
}
