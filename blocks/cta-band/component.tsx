import { Container, Group, Text, Title } from '@mantine/core';
import type { BlockProps } from '../types.ts';
import { SectionFrame } from '../../renderer/ui/Section.tsx';
import { CallButton, LinkButton } from '../../renderer/ui/actions.tsx';
import { RichText } from '../../renderer/text/RichText.tsx';
import './styles.css';

export function CtaBandBlock({ block }: BlockProps<'cta-band'>) {
  const emergency = block.variant === 'emergency';
  const color = emergency ? 'red' : undefined;
  return (
    <SectionFrame
      id={block.id}
      aliases={block.aliases}
      tone={emergency ? 'emergency' : 'brand'}
      className="cta-band"
    >
      <Container size="md" ta="center">
        <Title order={2}>{block.heading}</Title>
        {block.text && (
          <Text size="lg" mt="sm">
            <RichText text={block.text} />
          </Text>
        )}
        <Group justify="center" gap="sm" mt="lg">
          <CallButton label={block.callLabel} color={color} />
          {block.secondaryAction && (
            <LinkButton link={block.secondaryAction} variant="outline" color={color} />
          )}
        </Group>
      </Container>
    </SectionFrame>
  );
}
