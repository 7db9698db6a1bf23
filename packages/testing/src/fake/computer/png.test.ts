import { inflateSync, crc32 as nodeCrc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { solidPng } from './png.js';

describe('the fake’s PNGs', () => {
  it('carry chunks whose CRCs are what zlib computes, and pixels of the colour asked for', () => {
    const png = Buffer.from(solidPng(3, 2, [10, 20, 30]));
    let offset = 8;
    const types: string[] = [];
    let pixels = Buffer.alloc(0);
    while (offset < png.byteLength) {
      const length = png.readUInt32BE(offset);
      const typeAndData = png.subarray(offset + 4, offset + 8 + length);
      const type = typeAndData.subarray(0, 4).toString('ascii');
      types.push(type);
      expect(png.readUInt32BE(offset + 8 + length), type).toBe(nodeCrc32(typeAndData));
      if (type === 'IDAT') pixels = inflateSync(typeAndData.subarray(4));
      offset += 12 + length;
    }
    expect(types).toEqual(['IHDR', 'IDAT', 'IEND']);
    // Each row: a filter byte, then RGB per pixel.
    expect([...pixels.subarray(0, 4)]).toEqual([0, 10, 20, 30]);
  });
});
