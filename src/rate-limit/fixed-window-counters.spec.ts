import { jest } from '@jest/globals';

import { FixedWindowCounters } from './fixed-window-counters.js';

describe('FixedWindowCounters', () => {
  let counters: FixedWindowCounters;
  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    counters = new FixedWindowCounters();
  });
  afterEach(() => {
    counters.close();
    jest.useRealTimers();
  });

  const hit = () => counters.increment('ip:1', 60_000, 3, 60_000, 'minute');

  it('counts up to the limit, then blocks for the block duration', () => {
    expect([hit(), hit(), hit()].map((record) => [record.totalHits, record.isBlocked])).toEqual([
      [1, false],
      [2, false],
      [3, false],
    ]);
    expect(hit()).toEqual({ totalHits: 4, timeToExpire: 60, isBlocked: true, timeToBlockExpire: 60 });
    jest.advanceTimersByTime(45_000);
    expect(hit()).toEqual({ totalHits: 5, timeToExpire: 15, isBlocked: true, timeToBlockExpire: 15 });
  });

  it('starts over when the block ends', () => {
    for (let sent = 0; sent < 4; sent++) {
      hit();
    }
    jest.advanceTimersByTime(60_000);
    expect(hit()).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
  });

  it('starts a new window when the old one expires without a block', () => {
    hit();
    hit();
    jest.advanceTimersByTime(61_000);
    expect(hit()).toMatchObject({ totalHits: 1, isBlocked: false, timeToExpire: 60 });
  });

  it('keeps keys and windows apart', () => {
    for (let sent = 0; sent < 4; sent++) {
      hit();
    }
    expect(counters.increment('ip:2', 60_000, 3, 60_000, 'minute')).toMatchObject({ totalHits: 1, isBlocked: false });
    expect(counters.increment('ip:1', 86_400_000, 1000, 86_400_000, 'day')).toMatchObject({ totalHits: 1 });
  });
});
