import { describe, expect, it } from 'vitest';
import { FillRate, startsPerMinute } from './fill-rate.js';

describe('startsPerMinute', () => {
  it('is fill_rate_per_minute percent of the size, rounded up, at least one', () => {
    expect(startsPerMinute({ size: 50, fill_rate_per_minute: 10 })).toBe(5);
    expect(startsPerMinute({ size: 3, fill_rate_per_minute: 10 })).toBe(1);
    expect(startsPerMinute({ size: 15, fill_rate_per_minute: 25 })).toBe(4);
  });

  it("takes the catalog's default rate (10 %) when none is set", () => {
    expect(startsPerMinute({ size: 40 })).toBe(4);
  });
});

describe('FillRate', () => {
  it('starts full: a new pool starts a minute of browsers at once, no more', () => {
    const rate = new FillRate(5, 0);
    expect(rate.take(20, 0)).toBe(5);
    expect(rate.take(20, 0)).toBe(0);
  });

  it('refills continuously, up to one minute of starts', () => {
    const rate = new FillRate(6, 0);
    rate.take(6, 0);
    expect(rate.take(6, 10_000)).toBe(1);
    expect(rate.take(6, 10 * 60_000)).toBe(6);
  });

  it('never takes more than asked, and keeps the rest', () => {
    const rate = new FillRate(4, 0);
    expect(rate.take(1, 0)).toBe(1);
    expect(rate.take(10, 0)).toBe(3);
  });

  it('adds starts outside the rate (a reused browser replaced at once)', () => {
    const rate = new FillRate(1, 0);
    rate.take(1, 0);
    expect(rate.take(1, 0, 1)).toBe(1);
  });

  it('says how long until the next start', () => {
    const rate = new FillRate(2, 0);
    rate.take(2, 0);
    expect(rate.waitMs()).toBe(30_000);
    rate.take(0, 15_000);
    expect(rate.waitMs()).toBe(15_000);
  });
});

describe('FillRate.giveBack', () => {
  it('returns starts taken but not made, up to one minute of starts', () => {
    const rate = new FillRate(3, 0);
    expect(rate.take(3, 0)).toBe(3);
    rate.giveBack(2);
    expect(rate.take(3, 0)).toBe(2);
    rate.giveBack(10);
    expect(rate.take(10, 0)).toBe(3);
  });
});

describe('FillRate.hasStart', () => {
  it('says whether a start is allowed now, taking none', () => {
    const rate = new FillRate(1, 0);
    expect(rate.hasStart(0)).toBe(true);
    expect(rate.hasStart(0)).toBe(true);
    rate.take(1, 0);
    expect(rate.hasStart(30_000)).toBe(false);
    expect(rate.hasStart(60_000)).toBe(true);
  });
});
