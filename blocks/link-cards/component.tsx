import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { Grid, IconBadge } from '../../renderer/ui/layout.tsx';
import type { BlockProps } from '../types.ts';
import { Section } from '../../renderer/ui/Section.tsx';
import { RichText } from '../../renderer/text/RichText.tsx';
import { SmartLink } from '../../renderer/text/SmartLink.tsx';
import { icons } from '../../renderer/icons.ts';
import './styles.css';

export function LinkCardsBlock({ block }: BlockProps<'link-cards'>) {
  const max = block.maxLinks ?? 3;
  return (
    <Section block={block}>
      <Grid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
        {block.cards.map((card) => {
          const Icon = card.icon ? icons[card.icon] : undefined;
          const shown = card.links.slice(0, max);
          const hidden = card.links.length - shown.length;
          const first = card.links[0];
          return (
            <Card key={card.title} withBorder radius="md" padding="lg" className="content-card">
              <Stack gap="xs" h="100%">
                {Icon && (
                  <IconBadge>
                    <Icon size={26} aria-hidden />
                  </IconBadge>
                )}
                <Title order={3} size="h4">
                  {card.title}
                </Title>
                <Text>
                  <RichText text={card.text} />
                </Text>
                <ul className="link-list">
                  {shown.map((link) => (
                    <li key={link.href}>
                      <SmartLink href={link.href}>
                        <RichText text={link.label} />
                      </SmartLink>
                    </li>
                  ))}
                </ul>
                {hidden > 0 && (
                  <Text size="sm" c="dimmed">
                    {block.moreLabel.replace('{count}', String(hidden))}
                  </Text>
                )}
                {first && (
                  <Button component={SmartLink} href={first.href} variant="light" mt="auto">
                    {block.learnMoreLabel}
                    {/* Names the link for search engines and screen readers alike: "Learn More: Opioids". */}
                    <span className="visually-hidden">: {card.title}</span>
                  </Button>
                )}
              </Stack>
            </Card>
          );
        })}
      </Grid>
    </Section>
  );
}
