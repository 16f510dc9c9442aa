import { Container, Group, Text } from '@mantine/core';
import { IconStethoscope } from '@tabler/icons-react';
import { reviewDay, reviewer, type MedicalReview } from '../medical-review.ts';

/** "Medically reviewed by <name, credential> on <date>", under the page's first screen; only from the record. */
export function ReviewLine({ review }: { review: MedicalReview }) {
  return (
    <Container size="lg" py="xs">
      <Group gap={6} wrap="nowrap" align="flex-start">
        <IconStethoscope size={18} aria-hidden="true" className="accent-icon" />
        <Text size="sm" c="dimmed">
          {`Medically reviewed by ${reviewer(review)} on `}
          <time dateTime={review.date}>{reviewDay(review.date)}</time>
        </Text>
      </Group>
    </Container>
  );
}
