import { Card, Text, Title } from '@mantine/core';
import { Grid } from '../../renderer/ui/layout.tsx';
import type { BlockProps } from '../types.ts';
import { Section } from '../../renderer/ui/Section.tsx';
import { RELATED_COUNT, relatedPrograms } from '../../renderer/content/related-programs.ts';
import { usePage } from '../../renderer/page-context.tsx';
import { LinkButton } from '../../renderer/ui/actions.tsx';
import { SmartLink } from '../../renderer/text/SmartLink.tsx';
import { siteData } from '../../renderer/site-data.ts';
import './styles.css';

export function RelatedProgramsBlock({ block }: BlockProps<'related-programs'>) {
  const { path } = usePage();
  // The catalogue is site data (site/programs.json), given at run time like every document.
  const related = relatedPrograms(siteData().programs.programs, {
    category: block.category,
    currentPath: path,
    prefer: block.prefer,
    picks: block.picks,
  });
  return (
    <Section block={block}>
      <Grid cols={{ base: 1, sm: 2, md: RELATED_COUNT }} spacing="lg">
        {related.map((program) => (
          <Card key={program.path} withBorder radius="md" padding="lg" className="content-card">
            <Title order={3} size="h4">
              {program.title}
            </Title>
            <Text mt="xs">{program.description}</Text>
            <SmartLink href={program.path} className="card-link">
              {block.learnMoreLabel}
              <span className="visually-hidden">: {program.title}</span>
              <span aria-hidden> →</span>
            </SmartLink>
          </Card>
        ))}
      </Grid>
      <div className="centered-action">
        <LinkButton link={block.viewAll} variant="outline" />
      </div>
    </Section>
  );
}
