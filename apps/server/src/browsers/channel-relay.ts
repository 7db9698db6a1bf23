import type { Socket } from 'node:net';
import type { CdpChannel } from './cdp-connection.js';
import type { ChromiumInstance } from './chromium-engine.js';

/** Bytes of DevTools messages waiting for the other side past which Chromium is not read. */
const HIGH_WATER_BYTES = 8 * 1024 * 1024;

/**
 * Opens a DevTools channel of `instance` for a process of the session's sandbox and relays it
 * both ways over `devtools` (the process's fd 3), each message ended by a NUL byte as on
 * Chromium's pipe, with back-pressure both ways: a process that does not read stops Chromium
 * being read for it, and one that writes faster than Chromium reads is not read meanwhile.
 * `onEnd` hears the browser end the channel; the channel closes when the socket does.
 */
export async function relayChannel(
  instance: ChromiumInstance,
  devtools: Socket,
  onEnd: () => void,
): Promise<CdpChannel> {
  let channel: CdpChannel | undefined;
  let isCongested = false;
  const opened = await instance.chromium.openChannel({
    deliver: (message) => {
      devtools.write(message);
      devtools.write('\0');
      if (devtools.writableLength > HIGH_WATER_BYTES) isCongested = true;
    },
    end: onEnd,
    isCongested: () => isCongested,
  });
  channel = opened;
  devtools.on('drain', () => {
    if (!isCongested) return;
    isCongested = false;
    channel?.drained();
  });
  let partial: Buffer[] = [];
  devtools.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let end = chunk.indexOf(0); end !== -1; end = chunk.indexOf(0, start)) {
      partial.push(chunk.subarray(start, end));
      const hasRoom = opened.send(Buffer.concat(partial).toString());
      partial = [];
      start = end + 1;
      if (!hasRoom) {
        devtools.pause();
        opened.whenWritable(() => devtools.resume());
      }
    }
    if (start < chunk.length) partial.push(Buffer.from(chunk.subarray(start)));
  });
  devtools.on('close', () => opened.close());
  return opened;
}
