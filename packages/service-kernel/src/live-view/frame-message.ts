import type { ScreenFrame } from '../engines.js';

/** A frame as a viewer receives it: a 4-byte length, a JSON header, then the picture. */
export function frameMessage(seq: number, frame: ScreenFrame): Uint8Array {
  const header = new TextEncoder().encode(
    JSON.stringify({ seq, width: frame.width, height: frame.height, mime: frame.mime }),
  );
  const message = new Uint8Array(4 + header.byteLength + frame.data.byteLength);
  new DataView(message.buffer).setUint32(0, header.byteLength);
  message.set(header, 4);
  message.set(frame.data, 4 + header.byteLength);
  return message;
}

/** A frame message read back: its header and its picture (for clients other than the page). */
export function readFrameMessage(message: Uint8Array): {
  header: { seq: number; width: number; height: number; mime: string };
  picture: Uint8Array;
} {
  const length = new DataView(message.buffer, message.byteOffset).getUint32(0);
  return {
    header: JSON.parse(new TextDecoder().decode(message.subarray(4, 4 + length))),
    picture: message.subarray(4 + length),
  };
}
