/**
 * `adoption_fee_range`: `<low>-<high>` in US dollars (docs/api.md §7).
 * Amounts are digits with optional cents, optionally after `$`; spaces may surround the
 * dash; `USD` may stand before or after (any case); low ≤ high ≤ 100000.
 */
export const MAX_FEE = 100_000;
const AMOUNT = String.raw`\$?(\d+(?:\.\d{2})?)`;
const USD = '[Uu][Ss][Dd]';
/**
 * The form alone, as a pattern without flags for the OpenAPI document (the value is trimmed
 * first, so white space may surround it); `low ≤ high ≤ 100000` is beyond a pattern.
 */
export const FEE_RANGE_PATTERN = String.raw`^\s*(?:(?:${USD}\s*)?${AMOUNT}\s*-\s*${AMOUNT}|${AMOUNT}\s*-\s*${AMOUNT}(?:\s*${USD})?)\s*$`;
const RANGE = new RegExp(
  String.raw`^(?:USD\s*)?${AMOUNT}\s*-\s*${AMOUNT}$|^${AMOUNT}\s*-\s*${AMOUNT}(?:\s*USD)?$`,
  'i',
);

export type FeeRangeVerdict = 'valid' | 'other-currency' | 'malformed';

export function judgeFeeRange(value: unknown): FeeRangeVerdict {
  if (typeof value !== 'string') {
    return 'malformed';
  }
  const match = RANGE.exec(value.trim());
  if (match) {
    const [low, high] = match
      .slice(1)
      .filter((amount) => amount !== undefined)
      .map(Number);
    if (low <= high && high <= MAX_FEE) {
      return 'valid';
    }
  }
  return namesOtherCurrency(value) ? 'other-currency' : 'malformed';
}

/** A currency sign other than `$`, or a standalone run of exactly three letters other than USD. */
export function namesOtherCurrency(value: string): boolean {
  if (/(?!\$)\p{Sc}/u.test(value)) {
    return true;
  }
  return (value.match(/\p{L}+/gu) ?? []).some((word) => [...word].length === 3 && word.toUpperCase() !== 'USD');
}
