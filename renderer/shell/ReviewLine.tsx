import { Container, Text } from '@mantine/core';
import { reviewerWords, type PageReview } from '../../core/page-reviews.ts';
import { useSite } from '../site-context.tsx';

/** The site's words when its labels predate the review line (a release stored before it). */
const DEFAULT_LINE = 'Medically reviewed by {reviewer} on {date}';

/** "November 28, 2026": the same on the server and in every browser (UTC, the day the approval was given). */
const longDate = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });

/**
 * "Medically reviewed by <name, credential> on <date>", under a page whose clinical content was approved: printed only
 * from the publish's record of that approval (core/page-reviews.ts), never from a document staff type.
 */
export function ReviewLine({ review }: { review: PageReview }) {
  const { site } = useSite();
  const [before, afterReviewer = ''] = (site.labels.reviewLine ?? DEFAULT_LINE).split('{reviewer}');
  const [between, after = ''] = afterReviewer.split('{date}');
  return (
    <Container size="lg" py="md" className="review-line">
      <Text size="sm">
        {before}
        <strong>{reviewerWords(review)}</strong>
        {between}
        <time dateTime={review.date}>{longDate(review.date)}</time>
        {after}
      </Text>
    </Container>
  );
}
