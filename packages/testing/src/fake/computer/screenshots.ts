import { solidPng } from './png.js';

/** Screenshots by size: a blank page looks the same every time, so each size is encoded once. */
const screenshots = new Map<string, Uint8Array>();

/** A blank PNG of this size. */
export function screenshotOfSize(width: number, height: number): Uint8Array {
  const key = `${width}x${height}`;
  let png = screenshots.get(key);
  if (!png) {
    if (screenshots.size >= 16) screenshots.clear();
    png = solidPng(width, height);
    screenshots.set(key, png);
  }
  return png;
}
