import { useId, type KeyboardEvent } from 'react';
import { Stack, Text, Title } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import type { BlockProps } from '../types.ts';
import { Section } from '../../renderer/ui/Section.tsx';
import { RichText } from '../../renderer/text/RichText.tsx';
import { LOOKS, prefetchMotion } from '../../renderer/motion/motion.ts';
import { toggleFromSummary } from '../../renderer/motion/disclosure.ts';
import './styles.css';

/** Arrow keys, Home and End move focus between the question headers (WAI-ARIA accordion pattern). */
function moveFocus(event: KeyboardEvent<HTMLElement>) {
  const keys = ['ArrowDown', 'ArrowUp', 'Home', 'End'];
  if (!keys.includes(event.key)) return;
  const headers = Array.from(
    event.currentTarget.closest('.faq-accordion')?.querySelectorAll<HTMLElement>('summary') ?? [],
  );
  const at = headers.indexOf(event.currentTarget);
  const last = headers.length - 1;
  const next =
    event.key === 'Home'
      ? 0
      : event.key === 'End'
        ? last
        : event.key === 'ArrowDown'
          ? at === last
            ? 0
            : at + 1
          : at === 0
            ? last
            : at - 1;
  event.preventDefault();
  headers[next]?.focus();
}

export function FaqBlock({ block }: BlockProps<'faq'>) {
  // Native exclusive <details name>: one answer open at a time, collapsible, and it works before any script runs.
  // After hydration, with motion (renderer/motion/), an answer fades into place as it opens and out as it closes.
  const group = useId();
  if (block.variant === 'accordion')
    return (
      <Section block={block} size="md">
        <div className="faq-accordion" onPointerDownCapture={prefetchMotion} onFocusCapture={prefetchMotion}>
          {block.items.map((item) => (
            <details key={item.question} name={group} className="faq-item">
              <summary onKeyDown={moveFocus} onClick={(event) => toggleFromSummary(event, LOOKS.disclosure)}>
                <Title order={3} size="h5" component="span" className="faq-question">
                  {item.question}
                </Title>
                <IconChevronDown size={20} aria-hidden className="faq-chevron" />
              </summary>
              <Text className="faq-answer">
                <RichText text={item.answer} />
              </Text>
            </details>
          ))}
        </div>
      </Section>
    );
  return (
    <Section block={block} size="md">
      <Stack gap="lg" mt="md">
        {block.items.map((item) => (
          <div key={item.question} className="faq-entry">
            <Title order={3} size="h4">
              {item.question}
            </Title>
            <Text mt={6}>
              <RichText text={item.answer} />
            </Text>
          </div>
        ))}
      </Stack>
    </Section>
  );
}
