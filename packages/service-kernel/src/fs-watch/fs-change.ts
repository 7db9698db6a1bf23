import type { WatchEvent } from '@x/types';

/** A change on an instance's files, as a watch reports it. */
export type FsChange = Extract<WatchEvent, { path: string }>;
