import { Card, List, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { Grid, IconBadge } from '../../renderer/ui/layout.tsx';
import type { BlockProps } from '../types.ts';
import { Section } from '../../renderer/ui/Section.tsx';
import { RichText } from '../../renderer/text/RichText.tsx';
import { LeadForm } from '../../renderer/forms/LeadForm.tsx';
import { formDefinition } from '../../renderer/forms/definitions.ts';

export function FormBlock({ block }: BlockProps<'form'>) {
  const definition = formDefinition(block.formId);
  return (
    <Section block={block}>
      <Grid cols={{ base: 1, md: block.points ? 2 : 1 }} spacing="xl" className="grid-spaced">
        {block.points && (
          <List
            spacing="sm"
            size="lg"
            icon={
              <IconBadge size="sm" shape="round">
                <IconCheck size={16} aria-hidden />
              </IconBadge>
            }
          >
            {block.points.map((point) => (
              <List.Item key={point}>
                <Text size="lg" component="span">
                  <RichText text={point} />
                </Text>
              </List.Item>
            ))}
          </List>
        )}
        <Card withBorder radius="md" padding="xl" shadow="sm">
          <LeadForm formId={block.formId} definition={definition} />
        </Card>
      </Grid>
    </Section>
  );
}
