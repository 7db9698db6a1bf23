import { describe, expect, it } from 'vitest';
import { attachToPage, connectCdp } from '../test-support/cdp-socket.js';
import { useTestServer } from '../test-support/servers.js';

const test = useTestServer();

describe('watches on the server', () => {
  it('see a file the browser downloads land in /home/browser/Downloads', async () => {
    const session = (await test.api.call('POST', '/browsers', { json: {} })).json as {
      session_id: string;
      cdp_ws_url: string;
    };
    const id = session.session_id;
    const watch = (
      await test.api.call('POST', `/browsers/${id}/fs/watch`, {
        json: { path: '/home/browser/Downloads' },
      })
    ).json as { watch_id: string };
    const stream = await test.api.stream(`/browsers/${id}/fs/watch/${watch.watch_id}/events`);
    // Raw DevTools through the session's CDP proxy (Playwright would set its own download folder).
    const cdp = await connectCdp(session.cdp_ws_url);
    try {
      const sessionId = await attachToPage(cdp);
      const click = `const a = document.createElement('a'); a.href = 'data:text/plain,report';
        a.download = 'report.txt'; document.body.append(a); a.click();`;
      await cdp.send('Runtime.evaluate', { expression: click }, sessionId);
      const seen: { type?: string; path?: string }[] = [];
      for (let count = 0; count < 20; count++) {
        const event = (await stream.next()) as { type?: string; path?: string } | undefined;
        if (!event) break;
        seen.push(event);
        if (event.path === '/home/browser/Downloads/report.txt') break;
      }
      expect(seen.map((event) => event.path)).toContain('/home/browser/Downloads/report.txt');
    } finally {
      stream.close();
      cdp.close();
      await test.api.call('DELETE', `/browsers/${id}`);
    }
  });

  it('cover directories made after a recursive watch started, and end with their browser', async () => {
    const id = (
      (await test.api.call('POST', '/browsers', { json: {} })).json as { session_id: string }
    ).session_id;
    const watch = (
      await test.api.call('POST', `/browsers/${id}/fs/watch`, {
        json: { path: '/home/browser', recursive: true },
      })
    ).json as { watch_id: string };
    const stream = await test.api.stream(`/browsers/${id}/fs/watch/${watch.watch_id}/events`);
    try {
      await test.api.call('POST', `/browsers/${id}/process/exec`, {
        json: { command: 'mkdir', args: ['-p', 'new/deeper'] },
      });
      const paths: string[] = [];
      // The new folders are watched once the first one's creation is seen (with what is in it
      // by then, which takes the watcher a moment): the file goes in after that.
      for (let count = 0; count < 1_000 && !paths.includes('/home/browser/new'); count++) {
        const event = (await stream.next()) as { path?: string } | undefined;
        if (!event) break;
        if (event.path) paths.push(event.path);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      await test.api.call('POST', `/browsers/${id}/process/exec`, {
        json: { command: 'touch', args: ['new/deeper/file.txt'] },
      });
      // The browser's profile is in /home/browser too: its writes come along.
      for (
        let count = 0;
        count < 1_000 && !paths.includes('/home/browser/new/deeper/file.txt');
        count++
      ) {
        const event = (await stream.next()) as { path?: string } | undefined;
        if (!event) break;
        if (event.path) paths.push(event.path);
      }
      expect(paths).toContain('/home/browser/new');
      expect(paths).toContain('/home/browser/new/deeper/file.txt');
      await test.api.call('DELETE', `/browsers/${id}`);
      for (let count = 0; count < 1_000; count++) if ((await stream.next()) === undefined) return;
      throw new Error('the stream did not end with its browser');
    } finally {
      stream.close();
    }
  });
});
