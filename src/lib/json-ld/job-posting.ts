import {
  EMPLOYMENT_TYPES,
  EMPLOYMENT_TYPE_SCHEMA,
  type EmploymentType,
  SALARY_UNITS,
  SALARY_UNIT_TEXT,
  type SalaryUnit,
} from '../jobs';
import {
  CONTEXT,
  type JsonLdObject,
  type JsonLdSite,
  absoluteUrl,
  compact,
  isoDateTime,
} from './core';
import { publisherOf } from './organization';

export type JobPostingInput = {
  path: string;
  title: string;
  /** The full listing as HTML (Google for Jobs reads the description's markup). */
  description: string;
  datePosted?: string | Date | null;
  /** The end of the closing day (募集締切); none: the listing has no deadline yet. */
  validThrough?: string | Date | null;
  /** The site's 雇用形態 values (src/lib/jobs.ts EMPLOYMENT_TYPES). */
  employmentTypes?: readonly string[];
  /**
   * 勤務地: the prefecture and the detail as written, or a フルリモート listing (no place of
   * work, applicants in Japan). 一部リモート keeps its place.
   */
  location?: { prefecture?: string | null; detail?: string | null; fullRemote?: boolean } | null;
  /** 給与: the unit (年収, 月給, 時給) and the range in yen; either end may be open. */
  salary?: { unit?: string | null; min?: number | null; max?: number | null } | null;
  hiringOrganization?: { name: string; url?: string | null; logo?: string | null } | null;
  /** The listing's id, as the hiring organization's identifier of it. */
  identifier?: string | null;
};

const isSalaryUnit = (unit: string | null | undefined): unit is SalaryUnit =>
  !!unit && (SALARY_UNITS as readonly string[]).includes(unit);
const isEmploymentType = (type: string): type is EmploymentType =>
  (EMPLOYMENT_TYPES as readonly string[]).includes(type);

/** baseSalary: a MonetaryAmount in yen with its unit; none without a unit or an amount. */
function baseSalaryOf(salary: JobPostingInput['salary']): JsonLdObject | undefined {
  if (!salary || !isSalaryUnit(salary.unit)) return undefined;
  const min = salary.min ?? undefined;
  const max = salary.max ?? undefined;
  if (min === undefined && max === undefined) return undefined;
  const exact = min !== undefined && (max === undefined ? false : max === min);
  return {
    '@type': 'MonetaryAmount',
    currency: 'JPY',
    value: compact({
      '@type': 'QuantitativeValue',
      ...(exact ? { value: min } : { minValue: min, maxValue: max }),
      unitText: SALARY_UNIT_TEXT[salary.unit],
    }),
  };
}

/** Where the work is: a Place in Japan, or for a フルリモート listing telecommute from Japan. */
function workplaceOf(location: JobPostingInput['location']) {
  if (location?.fullRemote) {
    return {
      jobLocationType: 'TELECOMMUTE',
      applicantLocationRequirements: { '@type': 'Country', name: 'JP' },
    };
  }
  const region = location?.prefecture?.trim() || undefined;
  const locality = location?.detail?.trim() || undefined;
  if (!region && !locality) return {};
  return {
    jobLocation: {
      '@type': 'Place',
      address: compact({
        '@type': 'PostalAddress',
        addressRegion: region,
        addressLocality: locality,
        addressCountry: 'JP',
      }),
    },
  };
}

/**
 * A job listing for Google for Jobs: what it requires (title, description, datePosted,
 * hiringOrganization, jobLocation or TELECOMMUTE with applicantLocationRequirements) and what
 * it recommends (validThrough, employmentType, baseSalary, identifier, directApply). Only for
 * an open listing: a closed one must not carry it (the page leaves it out).
 */
export function jobPostingJsonLd(site: JsonLdSite, input: JobPostingInput): JsonLdObject {
  const url = absoluteUrl(site, input.path);
  const types = [
    ...new Set(
      (input.employmentTypes ?? []).flatMap((t) =>
        isEmploymentType(t) ? [EMPLOYMENT_TYPE_SCHEMA[t]] : [],
      ),
    ),
  ];
  const organization = input.hiringOrganization;
  return compact({
    '@context': CONTEXT,
    '@type': 'JobPosting',
    title: input.title,
    description: input.description,
    url,
    datePosted: isoDateTime(input.datePosted),
    validThrough: isoDateTime(input.validThrough),
    employmentType: types.length > 0 ? types : undefined,
    hiringOrganization: organization
      ? compact({
          '@type': 'Organization',
          name: organization.name,
          sameAs: organization.url ? absoluteUrl(site, organization.url) : undefined,
          logo: organization.logo ? absoluteUrl(site, organization.logo) : undefined,
        })
      : publisherOf(site),
    identifier:
      input.identifier && organization
        ? { '@type': 'PropertyValue', name: organization.name, value: input.identifier }
        : undefined,
    ...workplaceOf(input.location),
    baseSalary: baseSalaryOf(input.salary),
    // Applying happens on the company's site or by e-mail, not on this page (Google: true
    // only when the whole application can be completed on the page itself).
    directApply: false,
  });
}
