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

describe('FixedWindowCounters, bounded', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('keeps at most its bound of windows, forgetting the one started longest ago first', () => {
    jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    const counters = new FixedWindowCounters(3);
    const hit = (key: string) => counters.increment(key, 60_000, 100, 60_000, 'minute').totalHits;
    try {
      expect([hit('ip:1'), hit('ip:1'), hit('ip:2'), hit('ip:3')]).toEqual([1, 2, 1, 1]);
      // A fourth caller: ip:1's window, the oldest, is forgotten; the others keep their counts.
      expect(hit('ip:4')).toBe(1);
      expect([hit('ip:2'), hit('ip:3'), hit('ip:4')]).toEqual([2, 2, 2]);
      expect(hit('ip:1')).toBe(1);
    } finally {
      counters.close();
    }
  });

  it('holds its bound however many callers a client makes up', () => {
    const counters = new FixedWindowCounters(1_000);
    try {
      for (let caller = 0; caller < 20_000; caller++) {
        counters.increment(`token:${caller}`, 60_000, 100, 60_000, 'minute');
      }
      // The 1,000 latest callers are still counted; the first is not.
      expect(counters.increment('token:19999', 60_000, 100, 60_000, 'minute').totalHits).toBe(2);
      expect(counters.increment('token:19001', 60_000, 100, 60_000, 'minute').totalHits).toBe(2);
      expect(counters.increment('token:0', 60_000, 100, 60_000, 'minute').totalHits).toBe(1);
    } finally {
      counters.close();
    }
  });
});
