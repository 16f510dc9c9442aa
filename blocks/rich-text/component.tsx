import { List, Text, Title } from '@mantine/core';
import type { BlockProps } from '../types.ts';
import { Section } from '../../renderer/ui/Section.tsx';
import { RichText } from '../../renderer/text/RichText.tsx';
import './styles.css';

export function RichTextBlock({ block }: BlockProps<'rich-text'>) {
  return (
    <Section block={block} size="md">
      <div className="prose">
        {block.body.map((node) => {
          if (typeof node === 'string')
            return (
              <Text key={node} mt="md" size="lg">
                <RichText text={node} />
              </Text>
            );
          if ('subheading' in node)
            return (
              <Title key={node.subheading} order={3} size="h4" mt="xl">
                {node.subheading}
              </Title>
            );
          return (
            <List key={node.list.join('|')} mt="md" spacing="xs" size="lg">
              {node.list.map((item) => (
                <List.Item key={item}>
                  <RichText text={item} />
                </List.Item>
              ))}
            </List>
          );
        })}
      </div>
    </Section>
  );
}
