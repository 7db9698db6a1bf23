import type { TelemetryInput, Viewport } from '@x/types';

/** Viewport of a browser created without one. */
export const DEFAULT_VIEWPORT: Viewport = { width: 1920, height: 1080 };

/** What a browser is created with: the create-browser body, or a pool's configuration. */
export interface BrowserSpec {
  /** Its name: unique among the running browsers of the project. */
  readonly name?: string | undefined;
  readonly tags?: Readonly<Record<string, string>> | undefined;
  readonly headless: boolean;
  readonly stealth: boolean;
  readonly kiosk_mode: boolean;
  /** GPU acceleration, as asked: refused, as no engine has one. */
  readonly gpu?: boolean | undefined;
  /** The page its first tab opens once it runs (not waited for). */
  readonly start_url?: string | undefined;
  /** Chrome enterprise policies it starts with, by name (checked by the schema). */
  readonly chrome_policy?: Readonly<Record<string, unknown>> | undefined;
  readonly timeout_seconds: number;
  readonly viewport?: Viewport | undefined;
  readonly extensions?: readonly { id?: string | undefined; name?: string | undefined }[];
  readonly invocation_id?: string | undefined;
  readonly proxy_id?: string | undefined;
  readonly network?: { readonly allow: readonly string[] } | undefined;
  readonly profile?:
    | {
        id?: string | undefined;
        name?: string | undefined;
        save_changes?: boolean | undefined;
      }
    | undefined;
  readonly pool?: { readonly id: string; readonly name?: string | undefined } | undefined;
  /** What its telemetry captures, as asked (resolved into the record). */
  readonly telemetry?: TelemetryInput | undefined;
}
