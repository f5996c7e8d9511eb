import { Fragment } from 'react';
import type { Segment } from '@/server/features/search/snippet';

/** Text with the matched parts in <mark>: rendered as text, never as HTML. */
export function Highlighted({ segments }: { segments: readonly Segment[] }) {
  return segments.map((segment, index) =>
    segment.match ? (
      <mark key={index}>{segment.text}</mark>
    ) : (
      <Fragment key={index}>{segment.text}</Fragment>
    ),
  );
}
