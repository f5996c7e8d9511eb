/** Unix-seconds time for tests that set the billing sandbox's clocks. */

export const DAY = 24 * 60 * 60;

/** A UTC calendar day (month from 1) in Unix seconds. */
export const utc = (year: number, month: number, day: number) =>
  Date.UTC(year, month - 1, day) / 1000;
