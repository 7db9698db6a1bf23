import type { Socket } from 'node:net';
import { readBoundedRecords } from '../system/bounded-records.js';
import type { CdpChannel } from './cdp-connection.js';
import type { ChromiumInstance } from './chromium-instance.js';

/** Bytes of DevTools messages waiting for the other side past which Chromium is not read. */
const HIGH_WATER_BYTES = 8 * 1024 * 1024;

/** Longest message a sandboxed process may send (as long as a DevTools client's over the proxy). */
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

/**
 * Opens a DevTools channel of `instance` for a process of the session's sandbox and relays it
 * both ways over `devtools` (the process's fd 3), each message ended by a NUL byte as on
 * Chromium's pipe, with back-pressure both ways: a process that does not read stops Chromium
 * being read for it, and one that writes faster than Chromium reads is not read meanwhile.
 * `onEnd` hears the browser end the channel; the channel closes when the socket does, or when
 * the process sends a message longer than a DevTools client may (`onEnd` hears that too).
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
  readBoundedRecords(devtools, {
    delimiter: 0,
    maxRecordBytes: MAX_MESSAGE_BYTES,
    onRecord: (message) => {
      if (opened.send(message.toString())) return;
      devtools.pause();
      opened.whenWritable(() => devtools.resume());
    },
    onOverflow: () => {
      devtools.destroy();
      opened.close();
      onEnd();
    },
  });
  devtools.on('close', () => opened.close());
  return opened;
}
