import { Text } from '@mantine/core';
import { Grid } from '../../renderer/ui/layout.tsx';
import type { BlockProps } from '../types.ts';
import { Section } from '../../renderer/ui/Section.tsx';
import { RichText } from '../../renderer/text/RichText.tsx';
import './styles.css';

export function StatsBlock({ block }: BlockProps<'stats'>) {
  return (
    <Section block={block}>
      <Grid
        component="dl"
        cols={{ base: 1, xs: 2, md: Math.min(block.items.length, 4) }}
        spacing="lg"
        className="stats"
      >
        {block.items.map((stat) => (
          <div key={stat.label} className="stat" data-emphasis={stat.emphasis ?? 'normal'}>
            <Text component="dt" fw={600}>
              {stat.label}
            </Text>
            <Text component="dd" className="stat-value">
              {stat.value}
            </Text>
            {stat.description && (
              <Text component="dd" size="sm" c="dimmed">
                <RichText text={stat.description} />
              </Text>
            )}
          </div>
        ))}
      </Grid>
      {block.note && (
        <Text size="sm" c="dimmed" mt="lg">
          <RichText text={block.note} />
        </Text>
      )}
    </Section>
  );
}
