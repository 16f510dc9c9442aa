// The redirects as visitors meet them: each rule's old addresses and the page they now lead to, by its title. A rule
// the build refuses (a target that is no page, a chain, a loop) shows the build's own message.
import { Paper, Stack, Text, Title } from '@mantine/core';
import type { StudioFile } from '../backend/content-backend.ts';
import type { FieldError } from '../form/form-context.ts';
import { isRecord, type Json } from '../../../content/json-pointer.ts';

type Props = { doc: Json; files: StudioFile[]; errors: FieldError[] };

export function RedirectsPreview({ doc, files, errors }: Props) {
  const rules = isRecord(doc) && Array.isArray(doc.redirects) ? doc.redirects : [];
  const titles = new Map(files.map((f) => [f.path, f.title]));
  return (
    <section aria-labelledby="redirects-preview" style={{ width: 520, flex: 'none' }}>
      <Title order={2} size="h5" id="redirects-preview" mb="xs">
        Where the old addresses lead
      </Title>
      <Stack gap="xs" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {rules.map((rule, i) => {
          const from =
            isRecord(rule) && Array.isArray(rule.from) ? rule.from.filter((f) => typeof f === 'string') : [];
          const to = isRecord(rule) && typeof rule.to === 'string' ? rule.to : '';
          const title = titles.get(to.split('#')[0]);
          const at = `/redirects/${i}`;
          const problems = errors.filter((e) => e.pointer === at || e.pointer.startsWith(`${at}/`));
          return (
            <Paper component="li" withBorder p="xs" key={i} data-testid={`redirect-${i}`}>
              <Text size="sm">
                {from.join(', ')} → <strong>{to}</strong>
              </Text>
              <Text size="xs" c="dimmed">
                {title ?? 'No page has this address.'}
              </Text>
              {problems.map((problem) => (
                <Text
                  key={problem.pointer + problem.message}
                  size="sm"
                  c="red.9"
                  data-testid="redirect-error"
                >
                  {problem.message}
                </Text>
              ))}
            </Paper>
          );
        })}
      </Stack>
    </section>
  );
}
