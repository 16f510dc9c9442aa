// The page's own fields (everything but its blocks), its address with a move that keeps old links working, and how
// it will look as a search result and as a shared card, with the page schema's length limits.
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { isRecord, type Json } from '../../../content/json-pointer.ts';
import { documentSchema } from '../schema/schemas.ts';
import { ObjectFields } from '../form/SchemaField.tsx';

const pageSchema = documentSchema('page');
const limit = (name: string, keyword: 'minLength' | 'maxLength'): number | undefined => {
  const properties = pageSchema.schema.properties;
  const property = isRecord(properties) ? properties[name] : undefined;
  return isRecord(property) && typeof property[keyword] === 'number' ? property[keyword] : undefined;
};

function Count({ text, name }: { text: string; name: string }) {
  const min = limit(name, 'minLength');
  const max = limit(name, 'maxLength');
  const n = [...text].length;
  const ok = (min === undefined || n >= min) && (max === undefined || n <= max);
  return (
    <Text size="xs" c={ok ? 'dimmed' : 'red'}>
      {name}: {n} characters{min !== undefined || max !== undefined ? ` (${min ?? 0}–${max ?? '∞'})` : ''}
    </Text>
  );
}

export function SearchAndShare({ doc, path, siteUrl }: { doc: Json; path: string; siteUrl: string }) {
  const page = isRecord(doc) ? doc : {};
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const social = isRecord(page.social) ? page.social : {};
  const title = str(page.title);
  const description = str(page.description);
  const url = `${siteUrl}${path === '/' ? '' : path}`;
  return (
    <Stack gap="sm" data-testid="search-preview">
      <Title order={2} size="h5">
        As a search result
      </Title>
      <Card withBorder padding="sm">
        <Text size="xs" c="dimmed">
          {url}
        </Text>
        <Text className="studio-search-title" size="lg" lineClamp={1}>
          {title || '(no title)'}
        </Text>
        <Text size="sm" lineClamp={2}>
          {description || '(no description)'}
        </Text>
      </Card>
      <Count text={title} name="title" />
      <Count text={description} name="description" />
      <Title order={2} size="h5">
        As a shared card
      </Title>
      <Card withBorder padding={0} maw={420}>
        <img
          src={str(social.image) || '/og-image.png'}
          alt=""
          style={{ width: '100%', aspectRatio: '1200 / 630', objectFit: 'cover' }}
        />
        <Stack gap={2} p="sm">
          <Text size="xs" c="dimmed" tt="uppercase">
            {new URL(siteUrl).host}
          </Text>
          <Text fw={700} lineClamp={2}>
            {str(social.title) || title}
          </Text>
          <Text size="sm" lineClamp={2}>
            {str(social.description) || description}
          </Text>
        </Stack>
      </Card>
    </Stack>
  );
}

type Props = {
  doc: Json;
  path: string;
  siteUrl: string;
  move: () => void;
  canMove: boolean;
  /** Add to a menu, delete (PageActions). */
  actions: ReactNode;
};

export function PageSettings({ doc, path, siteUrl, move, canMove, actions }: Props) {
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text>
          Address: <strong>{path}</strong>
        </Text>
        <Button
          size="xs"
          variant="light"
          onClick={move}
          disabled={!canMove}
          title={canMove ? undefined : 'Save the page first'}
        >
          Move to another address…
        </Button>
      </Group>
      {actions}
      <ObjectFields node={pageSchema} pointer="" value={doc} skip={['$schema', 'blocks']} />
      <SearchAndShare doc={doc} path={path} siteUrl={siteUrl} />
    </Stack>
  );
}
