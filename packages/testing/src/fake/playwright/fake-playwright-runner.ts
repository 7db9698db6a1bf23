import {
  type PlaywrightOutcome,
  type PlaywrightRun,
  type PlaywrightRunner,
  playwrightTimedOut,
} from '@x/service-kernel';
import type { FakeInstance } from '../browsers/fake-instance.js';

/** How a piece of code behaves in the fake: its outcome, and how long it takes. */
export interface PlaywrightScript {
  readonly outcome: PlaywrightOutcome;
  /** How long it runs, in milliseconds; past the call's `timeout_sec` it times out. Default 0. */
  readonly runForMs?: number;
}

/**
 * Runs Playwright code by script: a test sets what a piece of code comes to
 * (`fake.engines.playwright.scripts.set(code, …)`). Code without a script is read as the real
 * service would run it for the few shapes an example needs: `return <JSON>` gives that value,
 * `throw new Error('…')` fails with that message, `return page.url()` gives the page's address
 * (`about:blank`, the fake loads nothing), and anything else runs to `null`. Every run is kept
 * (`runs`), in order.
 */
export class FakePlaywrightRunner implements PlaywrightRunner<FakeInstance> {
  readonly scripts = new Map<string, PlaywrightScript>();
  readonly runs: { readonly browserId: string; readonly code: string }[] = [];

  assertAvailable(): void {
    // The fake runs no code: nothing can be missing.
  }

  async run(instance: FakeInstance, run: PlaywrightRun, signal: AbortSignal) {
    this.runs.push({ browserId: instance.id, code: run.code });
    const script = this.scripts.get(run.code) ?? builtIn(run.code);
    const runForMs = script.runForMs ?? 0;
    if (runForMs <= 0) return script.outcome;
    const waited = Math.min(runForMs, run.timeoutMs);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, waited);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    if (runForMs > run.timeoutMs) return playwrightTimedOut(run.timeoutMs);
    return script.outcome;
  }
}

const RETURN = /^\s*return\s+([\s\S]*?);?\s*$/;
const THROW = /^\s*throw\s+new\s+Error\(\s*(['"`])([\s\S]*?)\1\s*\);?\s*$/;

function builtIn(code: string): PlaywrightScript {
  const thrown = THROW.exec(code);
  if (thrown) {
    const message = thrown[2] ?? '';
    return {
      outcome: { success: false, error: message, stderr: `Error: ${message}\n    at <code>` },
    };
  }
  const returned = RETURN.exec(code)?.[1]?.trim();
  if (returned === undefined) return { outcome: { success: true, result: null } };
  if (/^(await\s+)?page\.url\(\)$/.test(returned)) {
    return { outcome: { success: true, result: 'about:blank' } };
  }
  try {
    return { outcome: { success: true, result: JSON.parse(returned) as unknown } };
  } catch {
    return { outcome: { success: true, result: null } };
  }
}
