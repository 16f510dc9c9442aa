import { Button, Card, List, Text, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { Grid, IconBadge } from '../../renderer/ui/layout.tsx';
import type { BlockProps } from '../types.ts';
import { Section } from '../../renderer/ui/Section.tsx';
import { RichText } from '../../renderer/text/RichText.tsx';
import { LeadForm } from '../../renderer/forms/LeadForm.tsx';
import { formDefinition } from '../../renderer/forms/definitions.ts';
import { promiseText } from '../../core/promise.ts';
import './styles.css';

function Points({ points }: { points: string[] }) {
  return (
    <List
      spacing="sm"
      size="lg"
      icon={
        <IconBadge size="sm" shape="round">
          <IconCheck size={16} aria-hidden />
        </IconBadge>
      }
    >
      {points.map((point) => (
        <List.Item key={point}>
          <Text size="lg" component="span">
            <RichText text={point} />
          </Text>
        </List.Item>
      ))}
    </List>
  );
}

export function FormBlock({ block }: BlockProps<'form'>) {
  if (block.secondFormId && block.id) return <FormChoice block={block} sectionId={block.id} />;
  const definition = formDefinition(block.formId);
  return (
    <Section block={block}>
      <Grid cols={{ base: 1, md: block.points ? 2 : 1 }} spacing="xl" className="grid-spaced">
        {block.points && <Points points={block.points} />}
        <Card withBorder radius="md" padding="xl" shadow="sm">
          <LeadForm formId={block.formId} definition={definition} />
        </Card>
      </Grid>
    </Section>
  );
}

/**
 * Two forms, each in its own card under its title and promise. A phone shows one card under the other, so the
 * section opens with a link to each (plain in-page links: they work without JavaScript); wider screens show the
 * cards side by side and need none.
 */
function FormChoice({ block, sectionId }: BlockProps<'form'> & { sectionId: string }) {
  const forms = [block.formId, block.secondFormId ?? block.formId].map((formId) => ({
    formId,
    id: `${sectionId}-${formId}`,
    definition: formDefinition(formId),
  }));
  return (
    <Section block={block}>
      <ul className="form-choices">
        {forms.map(({ id, definition }, i) => (
          <li key={id}>
            <Button
              component="a"
              href={`#${id}`}
              size="lg"
              variant={i === 0 ? 'filled' : 'outline'}
              fullWidth
            >
              {definition.title ?? definition.name}
            </Button>
          </li>
        ))}
      </ul>
      <Grid cols={{ base: 1, md: 2 }} spacing="xl" className="grid-spaced">
        {forms.map(({ formId, id, definition }) => (
          <Card key={id} id={id} withBorder radius="md" padding="xl" shadow="sm">
            <Title order={3}>{definition.title ?? definition.name}</Title>
            {definition.promise && (
              <Text mt="xs" mb="lg">
                <RichText text={promiseText(definition.promise, definition.promiseMinutes)} />
              </Text>
            )}
            <LeadForm formId={formId} definition={definition} idPrefix={`${id}-`} />
          </Card>
        ))}
      </Grid>
      {block.points && (
        <div className="form-points">
          <Points points={block.points} />
        </div>
      )}
    </Section>
  );
}
