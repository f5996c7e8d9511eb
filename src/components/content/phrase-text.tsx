import 'server-only';
import { loadDefaultJapaneseParser } from 'budoux';
import { Fragment } from 'react';

/**
 * Japanese text broken only between phrases (BudouX): a <wbr> between phrases, while the CSS
 * (`word-break: keep-all; overflow-wrap: anywhere`) keeps each phrase whole. For headings.
 */
const parser = loadDefaultJapaneseParser();

export function PhraseText({ text }: { text: string }) {
  const phrases = parser.parse(text);
  return (
    <>
      {phrases.map((phrase, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {phrase}
        </Fragment>
      ))}
    </>
  );
}
