import { Badge, Card, Group, List, Text, Title } from '@mantine/core';
import { Grid, IconBadge } from '../../renderer/ui/layout.tsx';
import type { BlockProps } from '../types.ts';
import { Section } from '../../renderer/ui/Section.tsx';
import { RichText } from '../../renderer/text/RichText.tsx';
import { icons } from '../../renderer/icons.ts';

export function ProtocolCardsBlock({ block }: BlockProps<'protocol-cards'>) {
  return (
    <Section block={block}>
      <Grid cols={{ base: 1, md: 2 }} spacing="lg">
        {block.protocols.map((protocol) => {
          const Icon = protocol.icon ? icons[protocol.icon] : undefined;
          return (
            <Card key={protocol.substance} withBorder radius="md" padding="lg" className="content-card">
              <Group justify="space-between" align="center" gap="xs">
                <Group gap="sm" wrap="nowrap">
                  {Icon && (
                    <IconBadge size="md">
                      <Icon size={24} aria-hidden />
                    </IconBadge>
                  )}
                  <Title order={3} size="h4">
                    {protocol.substance}
                  </Title>
                </Group>
                <Badge variant="light" size="lg" className="no-shrink">
                  <span className="visually-hidden">{block.durationLabel}: </span>
                  {protocol.duration}
                </Badge>
              </Group>
              <Text mt="md" fw={600} size="sm">
                {block.approachLabel}
              </Text>
              <Text mt={4}>
                <RichText text={protocol.approach} />
              </Text>
              <Text mt="md" fw={600} size="sm">
                {block.medicationsLabel}
              </Text>
              <List mt={4} size="sm" spacing={2}>
                {protocol.medications.map((medication) => (
                  <List.Item key={medication}>{medication}</List.Item>
                ))}
              </List>
            </Card>
          );
        })}
      </Grid>
    </Section>
  );
}
