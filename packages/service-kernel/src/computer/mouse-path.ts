/** A point of the viewport, in CSS pixels. */
export interface Point {
  readonly x: number;
  readonly y: number;
}

/** Milliseconds between two points of a paced path: about one frame. */
export const FRAME_MS = 16;

const easeInOut = (t: number) => (t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2);

/**
 * Points from `from` to `to` (excluding `from`, ending exactly on `to`), `steps` of them.
 * Straight and evenly spaced; `smooth` bends the path as a hand does (a cubic Bézier curve whose
 * control points sit off the straight line by a twentieth to a fifth of its length, to either
 * side: never a straight line that merely eases) and eases in and out,
 * so the pointer starts slowly, speeds up and slows down before it stops. `random` (0..1) picks
 * the bend; points are whole pixels, held inside `bounds` (exclusive).
 */
export function pathBetween(
  from: Point,
  to: Point,
  steps: number,
  options: { smooth: boolean; bounds: { width: number; height: number }; random?: () => number },
): Point[] {
  const random = options.random ?? Math.random;
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const length = Math.hypot(dx, dy);
  // Perpendicular unit vector, for the bend.
  const nx = length === 0 ? 0 : -dy / length;
  const ny = length === 0 ? 0 : dx / length;
  const side = random() < 0.5 ? -1 : 1;
  const bend = side * (0.05 + random() * 0.15) * length;
  const c1 = { x: from.x + dx / 3 + nx * bend, y: from.y + dy / 3 + ny * bend };
  const c2 = {
    x: from.x + (2 * dx) / 3 + nx * bend * 0.6,
    y: from.y + (2 * dy) / 3 + ny * bend * 0.6,
  };
  const clamp = (value: number, size: number) => Math.min(Math.max(Math.round(value), 0), size - 1);
  const points: Point[] = [];
  for (let step = 1; step <= steps; step++) {
    const linear = step / steps;
    if (step === steps) {
      points.push({ x: to.x, y: to.y });
      break;
    }
    if (!options.smooth) {
      points.push({
        x: clamp(from.x + dx * linear, options.bounds.width),
        y: clamp(from.y + dy * linear, options.bounds.height),
      });
      continue;
    }
    const t = easeInOut(linear);
    const u = 1 - t;
    const x = u ** 3 * from.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t ** 3 * to.x;
    const y = u ** 3 * from.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t ** 3 * to.y;
    points.push({ x: clamp(x, options.bounds.width), y: clamp(y, options.bounds.height) });
  }
  return points;
}
