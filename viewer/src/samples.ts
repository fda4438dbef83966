/**
 * The viewer's timing samples (the benchmark reads them): each list keeps only its newest
 * SAMPLE_CAP values, so a page left open for hours holds no more than a page just opened.
 */

/** How many of the newest samples each list keeps (a benchmark drag takes about a hundred). */
export const SAMPLE_CAP = 1000;

/** Appends a sample, dropping the oldest once the list holds SAMPLE_CAP (in place: no new array). */
export function recordSample(list: number[], value: number, cap = SAMPLE_CAP): void {
  if (list.length >= cap) {
    list.copyWithin(0, list.length - cap + 1);
    list.length = cap - 1;
  }
  list.push(value);
}
