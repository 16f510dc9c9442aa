import { Container, Group, List, Paper, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Grid } from '../../renderer/ui/layout.tsx';
import type { BlockProps } from '../types.ts';
import { SectionFrame } from '../../renderer/ui/Section.tsx';
import { LinkButton } from '../../renderer/ui/actions.tsx';
import { RichText } from '../../renderer/text/RichText.tsx';
import { icons } from '../../renderer/icons.ts';
import './styles.css';

const COLORS = { danger: 'red', warning: 'orange', info: undefined } as const;

export function WarningBoxBlock({ block }: BlockProps<'warning-box'>) {
  const variant = block.variant ?? 'warning';
  const Icon = block.icon ? icons[block.icon] : IconAlertTriangle;
  return (
    <SectionFrame id={block.id} aliases={block.aliases} tone={block.tone} className="section-tight">
      <Container size="md">
        <Paper className="warning-box" data-variant={variant} radius="md" p="xl" role="note">
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <Icon size={28} aria-hidden className="warning-icon" />
            <Title order={2} size="h3">
              {block.heading}
            </Title>
          </Group>
          {block.text && (
            <Text size="lg" mt="sm">
              <RichText text={block.text} />
            </Text>
          )}
          {block.groups && (
            <Grid
              cols={{ base: 1, sm: Math.min(block.groups.length, 2) }}
              spacing="lg"
              className="grid-spaced"
            >
              {block.groups.map((group) => (
                <div
                  key={group.title ?? group.items.join('|')}
                  data-emphasis={group.emphasis ?? 'normal'}
                  className="warning-group"
                >
                  {group.title && (
                    <Title order={3} size="h5" mb="xs">
                      {group.title}
                    </Title>
                  )}
                  <List spacing={4}>
                    {group.items.map((item) => (
                      <List.Item key={item}>
                        <RichText text={item} />
                      </List.Item>
                    ))}
                  </List>
                </div>
              ))}
            </Grid>
          )}
          {block.action && <LinkButton link={block.action} mt="lg" color={COLORS[variant]} />}
        </Paper>
      </Container>
    </SectionFrame>
  );
}
