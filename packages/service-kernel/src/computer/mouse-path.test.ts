import { describe, expect, it } from 'vitest';
import { pathBetween } from './mouse-path.js';

const bounds = { width: 1280, height: 720 };
const from = { x: 10, y: 10 };
const to = { x: 400, y: 300 };
/** Distance of a point from the straight line through `from` and `to`. */
const offLine = (point: { x: number; y: number }) =>
  Math.abs((to.y - from.y) * point.x - (to.x - from.x) * point.y + to.x * from.y - to.y * from.x) /
  Math.hypot(to.x - from.x, to.y - from.y);

describe('pathBetween', () => {
  it('ends exactly on the point, straight and even when not smooth', () => {
    const points = pathBetween(from, to, 10, { smooth: false, bounds });
    expect(points).toHaveLength(10);
    expect(points.at(-1)).toEqual(to);
    expect(Math.max(...points.map(offLine))).toBeLessThanOrEqual(1);
  });

  it('bends a smooth path visibly whatever the draw, to either side', () => {
    const length = Math.hypot(to.x - from.x, to.y - from.y);
    for (const draw of [0, 0.25, 0.4999, 0.5, 0.75, 0.9999]) {
      const points = pathBetween(from, to, 30, { smooth: true, bounds, random: () => draw });
      expect(points.at(-1)).toEqual(to);
      // The middle of the curve sits at least ~3% of the length off the line (5% at the controls).
      expect(Math.max(...points.map(offLine))).toBeGreaterThan(length * 0.03);
    }
  });

  it('keeps every point inside the bounds', () => {
    const corner = pathBetween({ x: 1, y: 1 }, { x: 1279, y: 1 }, 40, {
      smooth: true,
      bounds,
      random: () => 0,
    });
    for (const point of corner) {
      expect(point.x).toBeGreaterThanOrEqual(0);
      expect(point.x).toBeLessThan(1280);
      expect(point.y).toBeGreaterThanOrEqual(0);
      expect(point.y).toBeLessThan(720);
    }
  });
});
