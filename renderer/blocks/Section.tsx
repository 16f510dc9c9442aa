import type { ReactNode } from 'react';
import { Container, Text, Title } from '@mantine/core';
import { RichText } from '../text/RichText.tsx';

type SectionFields = {
  id?: string;
  aliases?: string[];
  heading?: string;
  intro?: string;
  tone?: 'default' | 'muted' | 'brand';
};

/** The frame every block sits in: anchor ids, background tone, heading and intro. */
export function Section({
  block,
  children,
  size = 'lg',
  headingOrder = 2,
}: {
  block: SectionFields;
  children: ReactNode;
  size?: 'sm' | 'md' | 'lg' | 'xl';
  headingOrder?: 2 | 3;
}) {
  return (
    <section id={block.id} className="section" data-tone={block.tone ?? 'default'}>
      {block.aliases?.map((alias) => (
        <span key={alias} id={alias} className="section-alias" />
      ))}
      <Container size={size}>
        {block.heading && (
          <Title order={headingOrder} className="section-heading">
            {block.heading}
          </Title>
        )}
        {block.intro && (
          <Text className="section-intro" size="lg">
            <RichText text={block.intro} />
          </Text>
        )}
        <div className="section-body">{children}</div>
      </Container>
    </section>
  );
}
