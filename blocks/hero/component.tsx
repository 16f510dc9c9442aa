import { Badge, Card, Container, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { Grid, IconBadge } from '../../renderer/ui/layout.tsx';
import type { BlockProps } from '../types.ts';
import { SectionFrame } from '../../renderer/ui/Section.tsx';
import { CallButton, LinkButton } from '../../renderer/ui/actions.tsx';
import { RichText } from '../../renderer/text/RichText.tsx';
import { icons } from '../../renderer/icons.ts';
import './styles.css';

export function HeroBlock({ block }: BlockProps<'hero'>) {
  const emergency = block.variant === 'emergency';
  const color = emergency ? 'red' : undefined;
  return (
    <SectionFrame
      id={block.id}
      aliases={block.aliases}
      tone={emergency ? 'emergency' : 'brand'}
      className="hero"
    >
      <Container size="lg">
        <Grid
          cols={{ base: 1, md: block.sideCard ? 2 : 1 }}
          spacing="xl"
          className={block.sideCard ? 'hero-grid hero-grid-card' : 'hero-grid'}
        >
          <Stack gap="md">
            {block.badge && (
              <Badge
                size="lg"
                variant={emergency ? 'filled' : 'light'}
                color={color}
                className="hero-badge wrapping-badge"
              >
                {block.badge}
              </Badge>
            )}
            <Title order={1} className="hero-title">
              {block.heading}
            </Title>
            {block.subtitle && (
              <Text size="xl" fw={600} className="hero-subtitle">
                <RichText text={block.subtitle} />
              </Text>
            )}
            {block.text && (
              <Text size="lg" className="hero-text">
                <RichText text={block.text} />
              </Text>
            )}
            <Group gap="sm" mt="sm">
              <CallButton label={block.callLabel} color={color} />
              {block.secondaryAction && (
                <LinkButton link={block.secondaryAction} variant="outline" color={color} />
              )}
            </Group>
            {block.trustPoints && (
              <Group gap="lg" component="ul" className="plain-list">
                {block.trustPoints.map((point) => {
                  const Icon = point.icon ? icons[point.icon] : IconCheck;
                  return (
                    <Group key={point.text} gap={6} component="li" wrap="nowrap" className="hero-trust-point">
                      <Icon size={18} aria-hidden className="accent-icon" />
                      <Text fw={500}>
                        <RichText text={point.text} />
                      </Text>
                    </Group>
                  );
                })}
              </Group>
            )}
          </Stack>
          {block.sideCard && (
            <Card withBorder radius="md" padding="xl" shadow="sm" className="hero-card">
              <Title order={2} size="h3">
                {block.sideCard.title}
              </Title>
              {block.sideCard.text && (
                <Text mt="xs">
                  <RichText text={block.sideCard.text} />
                </Text>
              )}
              <List
                mt="md"
                spacing="xs"
                icon={
                  <IconBadge size="sm" shape="round" tone={emergency ? 'danger' : 'brand'}>
                    <IconCheck size={14} aria-hidden />
                  </IconBadge>
                }
              >
                {block.sideCard.items.map((item) => (
                  <List.Item key={item}>{item}</List.Item>
                ))}
              </List>
              {block.sideCard.action && (
                <LinkButton link={block.sideCard.action} mt="lg" fullWidth color={color} />
              )}
            </Card>
          )}
        </Grid>
      </Container>
    </SectionFrame>
  );
}
