import { Badge, Card, List, Text, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { Grid, IconBadge, LEVEL_TONES } from '../../renderer/ui/layout.tsx';
import type { BlockProps } from '../types.ts';
import { Section } from '../../renderer/ui/Section.tsx';
import { RichText } from '../../renderer/text/RichText.tsx';
import { SmartLink } from '../../renderer/text/SmartLink.tsx';
import { icons } from '../../renderer/icons.ts';
import './styles.css';

export function CardGridBlock({ block }: BlockProps<'card-grid'>) {
  const columns = block.columns ?? 3;
  return (
    <Section block={block}>
      <Grid cols={{ base: 1, sm: 2, lg: columns }} spacing="lg" className="card-grid">
        {block.cards.map((card) => {
          const Icon = card.icon ? icons[card.icon] : undefined;
          return (
            <Card
              key={card.title}
              withBorder
              radius="md"
              padding="lg"
              className="content-card"
              data-severity={card.severity ?? 'normal'}
            >
              {(Icon || card.badge) && (
                <div className="card-head">
                  {Icon && (
                    <IconBadge tone={LEVEL_TONES[card.severity ?? 'normal']}>
                      <Icon size={26} aria-hidden />
                    </IconBadge>
                  )}
                  {card.badge && (
                    <Badge
                      color={
                        card.severity === 'critical' ? 'red' : card.severity === 'high' ? 'orange' : undefined
                      }
                      variant={card.severity === 'critical' ? 'filled' : 'light'}
                    >
                      {card.badge}
                    </Badge>
                  )}
                </div>
              )}
              <Title order={3} size="h4">
                {card.title}
              </Title>
              {card.meta && (
                <Text fw={600} size="sm" mt={4} className="brand-text">
                  {card.meta}
                </Text>
              )}
              {card.text && (
                <Text mt="xs">
                  <RichText text={card.text} />
                </Text>
              )}
              {card.items && (
                <List
                  mt="sm"
                  spacing={4}
                  size="sm"
                  className="card-items"
                  // A check mark says "yes, included": right for what the care offers, wrong beside a symptom.
                  icon={
                    card.itemMarker === 'check' ? (
                      <IconCheck size={16} aria-hidden className="accent-icon" />
                    ) : undefined
                  }
                >
                  {card.items.map((item) => (
                    <List.Item key={item}>
                      <RichText text={item} />
                    </List.Item>
                  ))}
                </List>
              )}
              {[card.link, ...(card.moreLinks ?? [])].map(
                (link) =>
                  link && (
                    <SmartLink key={link.label} href={link.href} className="card-link">
                      <RichText text={link.label} />
                      <span aria-hidden> →</span>
                    </SmartLink>
                  ),
              )}
            </Card>
          );
        })}
      </Grid>
    </Section>
  );
}
