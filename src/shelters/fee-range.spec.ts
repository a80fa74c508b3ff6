import { judgeFeeRange, namesOtherCurrency } from './fee-range.js';

describe('judgeFeeRange', () => {
  it.each([
    '75-200',
    '$75-$200',
    '$75.00 - $200.00',
    '75-200 USD',
    'USD 75-200',
    'usd75-200',
    '0-0',
    '75-100000',
    '  75-200  ',
  ])('accepts %p', (value) => {
    expect(judgeFeeRange(value)).toBe('valid');
  });

  it.each(['€75-€200', '75-200 EUR', 'abc', '$75-€200', 'CAD 75-200', 'eur', '£10-20', '₹75-200', 'USD 75-200 EUR'])(
    'names another currency in %p',
    (value) => {
      expect(judgeFeeRange(value)).toBe('other-currency');
    },
  );

  it.each(['cheap', '200-75', '75', 'US$75-200', '75-100001', '75.5-200', '', 'USD 75-200 USD', '-75-200', '75--200'])(
    'finds %p malformed',
    (value) => {
      expect(judgeFeeRange(value)).toBe('malformed');
    },
  );

  it.each([123, null, undefined, ['75-200'], { low: 75 }])('finds the non-string %p malformed', (value) => {
    expect(judgeFeeRange(value)).toBe('malformed');
  });

  it('counts only standalone runs of exactly three letters as currency codes', () => {
    expect(namesOtherCurrency('cheap')).toBe(false);
    expect(namesOtherCurrency('US$')).toBe(false);
    expect(namesOtherCurrency('USD')).toBe(false);
    expect(namesOtherCurrency('75 gbp')).toBe(true);
  });
});
