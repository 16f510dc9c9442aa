import { Grid } from '../ui/layout.tsx';
import { Container, Stack, Text } from '@mantine/core';
import { useSite } from '../site-context.tsx';
import { RichText } from '../text/RichText.tsx';
import { SmartLink } from '../text/SmartLink.tsx';

export function Footer() {
  const { site, phone } = useSite();
  const { footer } = site;
  return (
    <footer className="site-footer">
      <Container size="xl">
        <nav aria-label={site.labels.footerNavigation}>
          {/* The about text, then the link groups side by side: below it on a tablet, beside it from 62em. */}
          <Grid cols={{ base: 1, md: 2 }} spacing="xl">
            <Stack gap="xs" className="footer-about">
              <p className="footer-brand">{site.brand.name}</p>
              <Text size="sm">
                <RichText text={footer.about} />
              </Text>
              <a href={`tel:${phone.tel}`} className="footer-phone">
                {phone.display}
              </a>
            </Stack>
            <Grid cols={{ base: 1, sm: footer.groups.length }} spacing="xl">
              {footer.groups.map((group) => (
                <div key={group.title}>
                  <p className="footer-title">{group.title}</p>
                  <ul className="footer-links">
                    {group.links.map((link) => (
                      <li key={link.href}>
                        <SmartLink href={link.href}>{link.label}</SmartLink>
                      </li>
                    ))}
                  </ul>
                </div>
              ))}
            </Grid>
          </Grid>
          <div className="footer-bottom">
            <ul className="footer-legal">
              {footer.legal.map((link) => (
                <li key={link.href}>
                  <SmartLink href={link.href}>{link.label}</SmartLink>
                </li>
              ))}
            </ul>
            <Text size="sm">{footer.copyright}</Text>
          </div>
        </nav>
      </Container>
    </footer>
  );
}
