import { Badge, Group, List, Text, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import type { BlockProps } from '../types.ts';
import { Section } from '../../renderer/ui/Section.tsx';
import { LinkButton } from '../../renderer/ui/actions.tsx';
import { LabelText, RichText } from '../../renderer/text/RichText.tsx';
import './styles.css';

export function TimelineBlock({ block }: BlockProps<'timeline'>) {
  return (
    <Section block={block} size="md">
      <ol className="timeline">
        {block.items.map((item, index) => (
          <li key={item.title} className="timeline-item">
            <span className="timeline-number" aria-hidden>
              {index + 1}
            </span>
            <div>
              <Group gap="sm" align="center">
                <Title order={3} size="h4">
                  {item.title}
                </Title>
                {item.duration && (
                  <Badge variant="light" className="wrapping-badge">
                    <LabelText text={item.duration} />
                  </Badge>
                )}
              </Group>
              <Text mt={6}>
                <RichText text={item.description} />
              </Text>
              {item.features && (
                <List
                  mt="xs"
                  size="sm"
                  spacing={2}
                  icon={<IconCheck size={16} aria-hidden className="accent-icon" />}
                >
                  {item.features.map((feature) => (
                    <List.Item key={feature}>{feature}</List.Item>
                  ))}
                </List>
              )}
              {item.action && <LinkButton link={item.action} mt="sm" size="md" />}
            </div>
          </li>
        ))}
      </ol>
    </Section>
  );
}
