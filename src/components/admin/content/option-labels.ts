/**
 * How the editor names select options whose stored value is an identifier rather than
 * Japanese (the post formats); any other option shows as it is stored.
 */
const LABELS: Readonly<Record<string, string>> = {
  article: '記事',
  interview: 'インタビュー',
  report: 'レポート',
  insight: 'インサイト',
};

export function optionLabel(option: string): string {
  const label = LABELS[option];
  return label ? `${label}（${option}）` : option;
}
