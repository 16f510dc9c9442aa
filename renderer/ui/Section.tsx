import type { ReactNode } from 'react';
import { Container, Text, Title } from '@mantine/core';
import { RichText } from '../text/RichText.tsx';

type Tone = 'default' | 'muted' | 'brand' | 'emergency';

/** The outer <section> of every block: its anchor id, any alias anchors, and its background tone. */
export function SectionFrame({
  id,
  aliases,
  tone = 'default',
  className,
  children,
}: {
  id?: string;
  aliases?: string[];
  tone?: Tone;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section id={id} className={className ? `section ${className}` : 'section'} data-tone={tone}>
      {aliases?.map((alias) => (
        <span key={alias} id={alias} className="section-alias" />
      ))}
      {children}
    </section>
  );
}

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
    <SectionFrame id={block.id} aliases={block.aliases} tone={block.tone}>
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
    </SectionFrame>
  );
}
