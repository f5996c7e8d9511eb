import 'server-only';
import { ZxcvbnFactory, type ZxcvbnResult } from '@zxcvbn-ts/core';
import * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import * as zxcvbnEn from '@zxcvbn-ts/language-en';
import * as zxcvbnJa from '@zxcvbn-ts/language-ja';

/**
 * Password strength by zxcvbn-ts with its maintained dictionaries (common passwords, English and
 * Japanese words and names, keyboard patterns) and its Japanese feedback. Server-only: the
 * dictionaries are megabytes, never sent to the browser.
 */

/**
 * zxcvbn's score 3: about 10^8 to 10^10 guesses, "safely unguessable" online and resisting a
 * slow-hash offline attack for a while (we store scrypt hashes). Score 4 would refuse memorable
 * passphrases such as `new-sky-password`; 2 lets `guess-password` through.
 */
export const MIN_PASSWORD_SCORE = 3;

/**
 * The estimate's cost grows fast with length and l33t substitutions (a random 128-character
 * password took over a second with the defaults). A longer password is judged by its first 64
 * characters: any weakness there is still a weakness.
 */
const ESTIMATED_LENGTH = 64;
const L33T_SUBSTITUTIONS = 20;

/**
 * @zxcvbn-ts/language-ja has no 4.x release; 3.0.2 is data only (word lists and feedback strings)
 * and core 4 checks the translation keys when it is built (docs/decisions/016-libraries.md).
 * Its lists are named the 4.x way (`lastnames-ja`, like `lastnames-en`), so no name is shared
 * with another language's list and core's feedback still tells names from words.
 */
const japaneseDictionary = Object.fromEntries(
  Object.entries(zxcvbnJa.dictionary).map(([name, words]) => [`${name}-ja`, words]),
);

/**
 * Built on first use (ranking the dictionaries takes a quarter of a second), then kept once per
 * process on `globalThis`: the test runner loads this module afresh for every file, and each
 * copy built its own (the named singletons are cleared between files, so not one of those).
 */
const holder = globalThis as typeof globalThis & { __axisPasswordEstimator?: ZxcvbnFactory };

function passwordEstimator(): ZxcvbnFactory {
  return (holder.__axisPasswordEstimator ??= new ZxcvbnFactory({
    dictionary: { ...zxcvbnCommon.dictionary, ...zxcvbnEn.dictionary, ...japaneseDictionary },
    graphs: zxcvbnCommon.adjacencyGraphs,
    translations: zxcvbnJa.translations,
    maxLength: ESTIMATED_LENGTH,
    l33tMaxSubstitutions: L33T_SUBSTITUTIONS,
  }));
}

export function estimatePassword(password: string, userInputs: string[]): ZxcvbnResult {
  return passwordEstimator().check(password, userInputs);
}

/**
 * The words a guesser would try first for this person: the address, its local part and the
 * pieces of it, the name and its pieces, the site's name and host. zxcvbn matches each as a
 * dictionary word, so `axis-membership` or `hanako2024` score as weak as they are.
 */
export function personalWords(texts: (string | null | undefined)[]): string[] {
  const words = new Set<string>();
  const add = (word: string) => {
    const w = word.trim().toLowerCase();
    // Two letters of ASCII say little; two kanji are a whole given name.
    if (w.length >= (/^[ -~]*$/.test(w) ? 3 : 2)) words.add(w);
  };
  for (const text of texts) {
    if (!text) continue;
    add(text);
    const local = text.includes('@') ? text.slice(0, text.lastIndexOf('@')) : text;
    const pieces = local.split(/[\s\u3000._+\-@/:]+/u).filter(Boolean);
    pieces.forEach(add);
    add(pieces.join(''));
  }
  return [...words];
}
