import { stringify } from 'csv-stringify/sync';

/**
 * One CSV record (RFC 4180 quoting), by csv-stringify. A cell starting with = + - @, a tab or a
 * full-width = + - @ gets a leading apostrophe (`escape_formulas`): names and titles are people's
 * own text, and the file is opened in a spreadsheet, which would run it as a formula.
 */
export const csvRecord = (cells: readonly (string | number)[]) =>
  stringify([cells.map(String)], { escape_formulas: true, eof: false });

/** A whole file: a header record, then the rows, CRLF line ends as RFC 4180 writes them. */
export const csvFile = (
  header: readonly string[],
  rows: readonly (readonly (string | number)[])[],
) => [header, ...rows].map(csvRecord).join('\r\n') + '\r\n';
