// JSON-LD for a page, generated from typed inputs: the organization from site.json, the page's own
// `structuredData`, and the FAQ and breadcrumb blocks the page actually shows, so none can drift from what
// visitors read. Types come from schema.org through schema-dts.
import type {
  BreadcrumbList,
  FAQPage,
  Graph,
  IndividualPhysician,
  MedicalCondition,
  MedicalClinic,
  MedicalTherapy,
  MedicalWebPage,
  Offer,
  QuantitativeValue,
  Thing,
} from 'schema-dts';
import type { DurationRange, Site } from '../generated/content-types.ts';
import type { PageData } from './medical-review.ts';
import { breadcrumbTrail } from './content/breadcrumbs.ts';
import { formPromise } from './text/form-promise.ts';
import { plainText } from './text/tokens.ts';

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** UN/CEFACT unit codes, as schema.org's QuantitativeValue expects. */
const duration = ({ min, max, unit }: DurationRange): QuantitativeValue => ({
  '@type': 'QuantitativeValue',
  minValue: min,
  maxValue: max,
  unitCode: unit === 'days' ? 'DAY' : 'MON',
  unitText: unit,
});

function addDays(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

export function organization(site: Site, siteUrl: string): MedicalClinic {
  const { organization: facts } = site;
  return {
    '@type': 'MedicalClinic',
    '@id': `${siteUrl}/#organization`,
    name: site.brand.name,
    url: `${siteUrl}/`,
    telephone: site.phones.primary.tel,
    email: site.email,
    address: {
      '@type': 'PostalAddress',
      addressRegion: facts.addressRegion,
      addressCountry: facts.addressCountry,
    },
    openingHoursSpecification: {
      '@type': 'OpeningHoursSpecification',
      dayOfWeek: [...DAYS],
      opens: '00:00',
      closes: '23:59',
    },
    contactPoint: [site.phones.primary, site.phones.secondary].map((line) => ({
      '@type': 'ContactPoint',
      telephone: line.tel,
      contactType: 'admissions',
      areaServed: facts.addressRegion,
      hoursAvailable: {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: [...DAYS],
        opens: '00:00',
        closes: '23:59',
      },
    })),
    hasCredential: facts.accreditations.map((name) => ({
      '@type': 'EducationalOccupationalCredential',
      name,
    })),
    aggregateRating: {
      '@type': 'AggregateRating',
      ratingValue: facts.rating.value,
      reviewCount: facts.rating.count,
      bestRating: 5,
      worstRating: 1,
    },
  };
}

/** The page's whole JSON-LD graph. `path` is the page's own path; `siteUrl` the absolute origin. */
export function structuredData(page: PageData, path: string, site: Site, siteUrl = site.url): Graph {
  const url = `${siteUrl}${(page.canonical ?? path) === '/' ? '/' : (page.canonical ?? path)}`;
  const orgId = { '@id': `${siteUrl}/#organization` };
  const text = (value: string) =>
    plainText(value, {
      phone: site.phones[page.phoneLine ?? 'primary'].display,
      email: site.email,
      promise: formPromise,
    });
  const nodes: Thing[] = [organization(site, siteUrl)];
  const webPage: MedicalWebPage = {
    '@type': 'MedicalWebPage',
    '@id': `${url}#webpage`,
    url,
    name: text(page.title),
    description: text(page.description),
    publisher: orgId,
  };
  // Only from the record of a clinical review (renderer/medical-review.ts), as the line on the page.
  if (page.medicalReview) {
    const { name, credential, date } = page.medicalReview;
    webPage.reviewedBy = {
      '@type': 'Person',
      name,
      ...(credential && {
        hasCredential: { '@type': 'EducationalOccupationalCredential', name: credential },
      }),
    };
    webPage.lastReviewed = date;
  }
  nodes.push(webPage);

  const data = page.structuredData;
  if (data?.treatment) {
    const { treatment } = data;
    const therapyId = `${url}#treatment`;
    const therapy: MedicalTherapy = {
      '@type': 'MedicalTherapy',
      '@id': therapyId,
      name: treatment.name,
      description: treatment.description,
      url,
    };
    const condition: MedicalCondition = {
      '@type': 'MedicalCondition',
      name: treatment.treatmentFor,
      possibleTreatment: { '@id': therapyId },
    };
    const offer: Offer = {
      '@type': 'Offer',
      name: treatment.name,
      description:
        treatment.successRate === undefined
          ? treatment.description
          : `${treatment.description} Reported success rate: ${treatment.successRate}%.`,
      url,
      offeredBy: orgId,
      eligibleDuration: duration(treatment.duration),
    };
    nodes.push(therapy, condition, offer);
    webPage.about = { '@id': therapyId };
  }
  for (const name of data?.conditions ?? [])
    nodes.push({ '@type': 'MedicalCondition', name } satisfies MedicalCondition);
  for (const price of data?.priceOffers ?? [])
    nodes.push({
      '@type': 'Offer',
      name: price.serviceName,
      url,
      offeredBy: orgId,
      priceCurrency: 'USD',
      priceSpecification: {
        '@type': 'PriceSpecification',
        minPrice: price.minPrice,
        maxPrice: price.maxPrice,
        priceCurrency: 'USD',
      },
      eligibleDuration: duration(price.duration),
      priceValidUntil: addDays(site.sitemap.lastmod, site.organization.priceValidityDays),
    } satisfies Offer);
  if (data?.physician) {
    const { physician } = data;
    nodes.push({
      '@type': 'IndividualPhysician',
      name: physician.name,
      description: physician.description,
      occupationalCategory: physician.specialty,
      hasCredential: physician.qualifications.map((name) => ({
        '@type': 'EducationalOccupationalCredential',
        name,
      })),
      practicesAt: orgId,
    } satisfies IndividualPhysician);
  }

  const faqs = page.blocks.flatMap((block) => (block.type === 'faq' ? block.items : []));
  if (faqs.length > 0)
    nodes.push({
      '@type': 'FAQPage',
      '@id': `${url}#faq`,
      mainEntity: faqs.map((item) => ({
        '@type': 'Question',
        name: item.question,
        acceptedAnswer: { '@type': 'Answer', text: text(item.answer) },
      })),
    } satisfies FAQPage);

  const breadcrumb = page.blocks.find((block) => block.type === 'breadcrumb');
  if (breadcrumb) {
    const trail = breadcrumbTrail(path, breadcrumb.label ?? page.name, site.breadcrumbs);
    nodes.push({
      '@type': 'BreadcrumbList',
      itemListElement: trail.map((crumb, index) => ({
        '@type': 'ListItem',
        position: index + 1,
        name: crumb.label,
        item: crumb.href ? `${siteUrl}${crumb.href === '/' ? '/' : crumb.href}` : url,
      })),
    } satisfies BreadcrumbList);
  }
  return { '@context': 'https://schema.org', '@graph': nodes } as Graph;
}

/** JSON for a <script type="application/ld+json">: `<` escaped so no text can close the script element. */
export const jsonLd = (graph: Graph): string => JSON.stringify(graph).replace(/</g, '\\u003c');
