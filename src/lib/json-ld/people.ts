import { authorPath } from '../authors/works';
import type { SiteSettings } from '../metadata';
import { type JsonLdObject, type JsonLdSite, absoluteUrl } from './core';
import { publisherOf } from './organization';

/** A person named as an author: `url` is the page about them (their author page), `sameAs` their own site. */
export type JsonLdPerson = { name: string; url?: string | null; sameAs?: string | null };

function personOf(site: SiteSettings, person: JsonLdPerson): JsonLdObject {
  const url = person.url ? absoluteUrl(site, person.url) : undefined;
  const sameAs = person.sameAs ? absoluteUrl(site, person.sameAs) : undefined;
  return {
    '@type': 'Person',
    name: person.name,
    ...(url ? { url } : {}),
    ...(sameAs ? { sameAs } : {}),
  };
}

export function authorsOf(site: JsonLdSite, authors: readonly JsonLdPerson[] | undefined) {
  const people = (authors ?? []).filter((a) => a.name.trim() !== '');
  // Google wants an author; unsigned pieces are the publisher's own.
  if (people.length === 0) return [publisherOf(site)];
  return people.map((person) => personOf(site, person));
}

/** A writer as the content service gives one: with an id, they have an author page. */
export type WriterInput = { id?: string; name: string; website?: string | null };

/** Writers as JSON-LD authors: their author page as `url`, their own site as `sameAs`. */
export function writerPeople(writers: readonly WriterInput[] | undefined): JsonLdPerson[] {
  return (writers ?? []).map((w) => ({
    name: w.name,
    url: w.id ? authorPath(w.id) : undefined,
    sameAs: w.website,
  }));
}
