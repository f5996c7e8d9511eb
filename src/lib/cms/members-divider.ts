/**
 * The members' divider: where an editor ends the lead of a members' item
 * (docs/decisions/000-design-baseline.md, "Who reads what"). It is an `<hr>` carrying this one
 * attribute, so on any other renderer it is still a rule. The sanitiser keeps the attribute on
 * `<hr>` only (value emptied), so nothing else can pass for it, and a plain `<hr>` stays a
 * decorative rule.
 */
export const MEMBERS_DIVIDER = {
  tag: 'hr',
  attribute: 'data-members-divider',
  /** What the editorial console inserts, spelled as the sanitiser writes it. */
  html: '<hr data-members-divider />',
} as const;

/** True for the divider exactly: the attribute on an `<hr>`, not on anything else. */
export function isMembersDivider(tag: string, attribs: Readonly<Record<string, string>>): boolean {
  return tag === MEMBERS_DIVIDER.tag && Object.hasOwn(attribs, MEMBERS_DIVIDER.attribute);
}
