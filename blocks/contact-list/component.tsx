import { Card, SimpleGrid, Text, ThemeIcon, Title, Group } from '@mantine/core';
import type { BlockProps } from '../../renderer/blocks/types.ts';
import { Section } from '../../renderer/blocks/Section.tsx';
import { RichText } from '../../renderer/text/RichText.tsx';
import { icons } from '../../renderer/icons.ts';

export function ContactListBlock({ block }: BlockProps<'contact-list'>) {
  return (
    <Section block={block}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
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
                  <ThemeIcon
                    size={40}
                    radius="md"
                    variant="light"
                    color={contact.priority === 'critical' ? 'red' : undefined}
                  >
                    <Icon size={22} aria-hidden />
                  </ThemeIcon>
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
      </SimpleGrid>
    </Section>
  );
}
