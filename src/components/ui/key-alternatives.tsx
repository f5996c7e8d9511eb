import { Fragment, type ReactNode } from 'react';

/**
 * The keys that do one thing, each a <kbd>, with `or` between them (" / ", 「または」): the
 * keyboard help of the audio player and of the rich-text editor list their keys this way.
 */
export function KeyAlternatives({
  keys,
  or,
  kbdClassName,
}: {
  keys: readonly string[];
  or: ReactNode;
  kbdClassName?: string;
}) {
  return (
    <>
      {keys.map((key, i) => (
        <Fragment key={key}>
          {i > 0 ? or : null}
          <kbd className={kbdClassName}>{key}</kbd>
        </Fragment>
      ))}
    </>
  );
}
