import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_MODEL } from '@/lib/cms/model';
import { SITE_PAGE_ENDPOINTS } from '@/lib/site-pages';
import { contentModelMarkdown } from './model-doc';

describe('the content model', () => {
  it('is documented as it is (run `npm run docs:content-model` after changing the model)', () => {
    const doc = fs.readFileSync(
      path.resolve(import.meta.dirname, '../../../../docs/content-model.md'),
      'utf8',
    );
    expect(doc).toBe(contentModelMarkdown());
  });

  it('refers only to endpoints that exist, and has every area of SPEC §2', () => {
    const endpoints = new Set(CONTENT_MODEL.map((e) => e.endpoint));
    for (const def of CONTENT_MODEL) {
      for (const field of def.fields)
        if (field.endpoint) expect(endpoints).toContain(field.endpoint);
    }
    for (const area of [
      'posts',
      'categories',
      'series',
      'writers',
      'audios',
      'movies',
      'connect',
      'jobs',
      'partners',
    ]) {
      expect(endpoints).toContain(area);
    }
    for (const page of SITE_PAGE_ENDPOINTS) {
      expect(CONTENT_MODEL.find((e) => e.endpoint === page)?.kind).toBe('object');
    }
  });

  it('gives the SPEC post and connect fields', () => {
    const fields = (endpoint: string) =>
      CONTENT_MODEL.find((e) => e.endpoint === endpoint)!.fields.map((f) => f.id);
    expect(fields('posts')).toEqual(
      expect.arrayContaining(['title', 'description', 'coverImage', 'isPublicPreview']),
    );
    expect(fields('connect')).toEqual(
      expect.arrayContaining(['title', 'description', 'coverImage']),
    );
  });
});
