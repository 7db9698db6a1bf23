/** `text` as a URL, or undefined when it is none (`URL.parse`, which Node has from 22.1 on). */
export function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
