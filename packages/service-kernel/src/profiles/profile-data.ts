import { INSTANCE_HOME } from '@x/types';

/** Where a browser keeps its Chromium user data, inside its home. */
export const USER_DATA_DIR = `${INSTANCE_HOME}/.config/chromium`;

/**
 * What a profile keeps of a browser's user data (paths relative to `USER_DATA_DIR`): cookies,
 * local storage, IndexedDB, the origin-private file system, service workers and their caches,
 * the storage buckets' index, preferences (saved site permissions live there), saved logins, and
 * extensions' state and storage. Not kept: the HTTP and code caches, GPU caches, session
 * storage, open tabs, history, crash reports.
 */
export const PROFILE_PATHS: readonly string[] = [
  'Default/Cookies',
  'Default/Cookies-journal',
  'Default/Local Storage',
  'Default/IndexedDB',
  'Default/File System',
  'Default/Service Worker',
  'Default/WebStorage',
  'Default/Preferences',
  'Default/Secure Preferences',
  'Default/Login Data',
  'Default/Login Data-journal',
  'Default/Extension State',
  'Default/Extension Rules',
  'Default/Extension Scripts',
  'Default/Local Extension Settings',
  'Default/Sync Extension Settings',
  'Default/Managed Extension Settings',
];

/** Whether a path relative to the user data dir is one a profile keeps (or lies inside one). */
export function isProfilePath(relative: string): boolean {
  return PROFILE_PATHS.some((kept) => relative === kept || relative.startsWith(`${kept}/`));
}
