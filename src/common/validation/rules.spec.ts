import { codePointLength, isCalendarDate, isCleanString, isIdText } from './rules.js';

describe('isCalendarDate', () => {
  it.each(['2024-02-29', '2000-02-29', '2023-12-31', '0001-01-01', '9999-12-31'])('accepts %p', (value) => {
    expect(isCalendarDate(value)).toBe(true);
  });

  it.each([
    '2023-02-29',
    '1900-02-29',
    '2023-04-31',
    '2023-13-01',
    '2023-00-10',
    '2023-01-00',
    '0000-01-01',
    '2023-1-01',
    '2023-01-01T00:00:00Z',
    ' 2023-01-01',
    20230101,
    null,
  ])('rejects %p', (value) => {
    expect(isCalendarDate(value)).toBe(false);
  });
});

describe('isIdText', () => {
  it.each(['1', '42', '9999999999999999'])('accepts %p', (value) => {
    expect(isIdText(value)).toBe(true);
  });

  it.each(['0', '-1', 'abc', '1.5', '1e3', '01', '+1', '', '10000000000000000', ' 1'])('rejects %p', (value) => {
    expect(isIdText(value)).toBe(false);
  });
});

describe('strings', () => {
  it('counts code points, not UTF-16 units', () => {
    expect(codePointLength('🐱🐶')).toBe(2);
    expect(codePointLength('e\u0301')).toBe(2);
  });

  it('refuses U+0000 and lone surrogates, keeps other control characters', () => {
    expect(isCleanString('a\u0000b')).toBe(false);
    expect(isCleanString('a\ud800b')).toBe(false);
    expect(isCleanString('tab\there\u0007')).toBe(true);
  });
});
