/** Tells the time. Fixtures and the fake read the time only through one of these. */
export type Clock = () => Date;

/** The instant fixtures start from: `2026-01-01T00:00:00.000Z`. */
export const FIXTURE_EPOCH = Date.UTC(2026, 0, 1);

/** The real clock. */
export const systemClock: Clock = () => new Date();

/** A clock that starts at `start` and moves one second forward each time it is read. */
export function steppingClock(start: number = FIXTURE_EPOCH, stepMs = 1000): Clock {
  let next = start;
  return () => {
    const now = new Date(next);
    next += stepMs;
    return now;
  };
}
