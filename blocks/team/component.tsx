import { Avatar, Card, Group, Text, Title } from '@mantine/core';
import { Grid } from '../../renderer/ui/layout.tsx';
import type { BlockProps } from '../types.ts';
import { Section } from '../../renderer/ui/Section.tsx';
import { RichText } from '../../renderer/text/RichText.tsx';

const initials = (name: string) =>
  name
    .replace(/^(Dr\.|Mr\.|Ms\.|Mrs\.)\s+/, '')
    .split(/[\s,]+/)
    .filter((word) => /^[A-Z]/.test(word))
    .slice(0, 2)
    .map((word) => word[0])
    .join('');

export function TeamBlock({ block }: BlockProps<'team'>) {
  return (
    <Section block={block}>
      <Grid cols={{ base: 1, sm: 2, lg: Math.min(block.members.length, 4) }} spacing="lg">
        {block.members.map((member) => (
          <Card key={member.name} withBorder radius="md" padding="lg" className="content-card">
            <Group gap="md" wrap="nowrap">
              <Avatar size={56} radius="xl" color="initials" variant="light" aria-hidden>
                {initials(member.name)}
              </Avatar>
              <div>
                <Title order={3} size="h5">
                  {member.name}
                </Title>
                <Text size="sm" fw={600} className="brand-text">
                  {member.role}
                </Text>
              </div>
            </Group>
            {member.credentials && (
              <Text size="sm" c="dimmed" mt="sm">
                {member.credentials.join(' · ')}
              </Text>
            )}
            <Text mt="sm">
              <RichText text={member.bio} />
            </Text>
          </Card>
        ))}
      </Grid>
    </Section>
  );
}
