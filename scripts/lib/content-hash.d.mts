/** What a build was made from, by content (see content-hash.mjs). */
export type InputHashes = Record<string, string>;
export function hashInputs(root: string, inputs: readonly string[]): InputHashes;
export function recordInputs(file: string, hashes: InputHashes): void;
export function readInputRecord(file: string): InputHashes | null;
export function changedInput(record: InputHashes, hashes: InputHashes): string | null;
