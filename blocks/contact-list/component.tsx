import { Card, Text, Title, Group } from '@mantine/core';
import { Grid, IconBadge, LEVEL_TONES } from '../../renderer/ui/layout.tsx';
import type { BlockProps } from '../types.ts';
import { Section } from '../../renderer/ui/Section.tsx';
import { RichText } from '../../renderer/text/RichText.tsx';
import { icons } from '../../renderer/icons.ts';
import './styles.css';

export function ContactListBlock({ block }: BlockProps<'contact-list'>) {
  return (
    <Section block={block}>
      <Grid cols={{ base: 1, sm: 2 }} spacing="lg">
        {block.contacts.map((contact) => {
          const Icon = contact.icon ? icons[contact.icon] : undefined;
          const value = <RichText text={contact.value} />;
          return (
            <Card
              key={contact.name}
              withBorder
              radius="md"
              padding="lg"
              className="content-card"
              data-priority={contact.priority ?? 'normal'}
            >
              <Group gap="sm" wrap="nowrap">
                {Icon && (
                  <IconBadge size="md" tone={LEVEL_TONES[contact.priority ?? 'normal']}>
                    <Icon size={22} aria-hidden />
                  </IconBadge>
                )}
                <Title order={3} size="h4">
                  {contact.name}
                </Title>
              </Group>
              <p className="contact-value">{contact.href ? <a href={contact.href}>{value}</a> : value}</p>
              <Text>
                <RichText text={contact.description} />
              </Text>
            </Card>
          );
        })}
      </Grid>
    </Section>
  );
}
