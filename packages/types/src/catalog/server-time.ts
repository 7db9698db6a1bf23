/**
 * How long the server may legitimately take before it answers, for the operations that wait:
 * each takes the request body as the caller sent it (a field left out means its default) and
 * gives milliseconds. A client adds this to its own time-out. They hold no schema, so a client
 * that imports one bundles only the function. (Moves, drags, key presses and typing take
 * `moveDurationMs` and its kin from the controls, which follow the same rule.)
 */
import { ACQUIRE_TIMEOUT_SECONDS } from '../common/limits.js';
import { batchDurationMs } from '../computer/durations.js';

/** A number the caller gave, or the default when it gave none (or something else). */
function given(value: unknown, otherwise: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : otherwise;
}

/** `browserPools.acquire` waits up to `acquire_timeout_seconds` for a browser to come free. */
export function acquireServerTimeMs(
  body: { acquire_timeout_seconds?: number } | undefined,
): number {
  return given(body?.acquire_timeout_seconds, ACQUIRE_TIMEOUT_SECONDS.default) * 1000;
}

/** `browsers.computer.batch` runs its actions' own pauses and durations, one after another. */
export function batchServerTimeMs(body: { actions?: readonly unknown[] } | undefined): number {
  return batchDurationMs(body?.actions as Parameters<typeof batchDurationMs>[0]);
}

/** `browsers.process.exec` runs the command for up to `timeout_sec` seconds. */
export function execServerTimeMs(body: { timeout_sec?: number } | undefined): number {
  return given(body?.timeout_sec, 0) * 1000;
}

/** `browsers.playwright.execute` runs the code for up to `timeout_sec` seconds (default 60). */
export function playwrightServerTimeMs(body: { timeout_sec?: number } | undefined): number {
  return given(body?.timeout_sec, 60) * 1000;
}

/** `browsers.curl` waits for the target for up to `timeout_ms` (default 30 s). */
export function curlServerTimeMs(body: { timeout_ms?: number } | undefined): number {
  return given(body?.timeout_ms, 30_000);
}

/** `nodes.drain` waits up to `wait_seconds` (default 0) for the node's sessions in use to end. */
export function drainServerTimeMs(body: { wait_seconds?: number } | undefined): number {
  return given(body?.wait_seconds, 0) * 1000;
}
