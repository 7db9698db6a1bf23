import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useFakeService } from '@x/testing/vitest';
import { BrowserSessionSchema, ReplaySchema } from '@x/types';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { onlyJson, scratchFolder, TRANSPORTS, xbAgainst } from '../test-support/run-xb.js';

const fake = useFakeService({ listen: true });

describe.each(TRANSPORTS)('browser, computer and replay commands (%s)', (_, overHttp) => {
  const { run, newBrowser } = xbAgainst(fake, overHttp);

  it('browsers create prints the session, or one JSON document with --json', async () => {
    const human = await run([
      'browsers',
      'create',
      '--timeout-seconds',
      '120',
      '--viewport',
      '{"width":1280,"height":800}',
    ]);
    expect(human).toMatchObject({ code: 0, stderr: '' });
    expect(human.stdout).toMatch(/^id +br_\w+\n/);
    expect(human.stdout).toContain('1280x800');
    const json = await run(['browsers', 'create', '--no-headless', '--json']);
    expect(json.code).toBe(0);
    const session = v.parse(BrowserSessionSchema, onlyJson(json.stdout));
    expect(session.headless).toBe(false);
    fake.journal.assertCalled('browsers.create', { body: { headless: false } });
  });

  it('browsers list shows a table, get one browser, delete confirms', async () => {
    const id = await newBrowser();
    const list = await run(['browsers', 'list']);
    expect(list.stdout.split('\n')[0]).toMatch(
      /^ID +NAME +CREATED +HEADLESS +TIMEOUT +POOL +INVOCATION$/,
    );
    expect(list.stdout).toContain(id);
    expect(onlyJson((await run(['browsers', 'list', '--json'])).stdout)).toHaveLength(1);
    expect((await run(['browsers', 'get', id])).stdout).toContain(`cdp_ws_url`);
    const deleted = await run(['browsers', 'delete', id]);
    expect(deleted).toMatchObject({ code: 0, stdout: `✓ Deleted browser ${id}.\n` });
    const again = await run(['browsers', 'delete', id, '--json']);
    expect(again).toMatchObject({ code: 5, stdout: '' });
    expect(again.stderr).toMatch(
      /^error: No browser session ".+"\. \(not_found, request req_\w+\)\n$/,
    );
    expect((await run(['browsers', 'list'])).stdout).toBe('No browsers.\n');
  });

  it('browsers rename and update change a running browser, found by its name after', async () => {
    const id = await newBrowser();
    const renamed = await run(['browsers', 'rename', id, 'checkout-agent']);
    expect(renamed).toMatchObject({
      code: 0,
      stdout: `✓ Browser ${id} is named checkout-agent.\n`,
    });
    const updated = await run([
      'browsers',
      'update',
      'checkout-agent',
      '--tags',
      '{"team":"shop"}',
      '--viewport',
      '{"width":1024,"height":700}',
      '--timeout-seconds',
      '600',
    ]);
    expect(updated.code).toBe(0);
    expect(updated.stdout).toMatch(/^name +checkout-agent$/m);
    expect(updated.stdout).toMatch(/^tags +team=shop$/m);
    expect(updated.stdout).toContain('1024x700');
    expect(updated.stdout).toMatch(/^timeout +600s$/m);
    const other = await newBrowser();
    const taken = await run(['browsers', 'rename', other, 'checkout-agent']);
    expect(taken.code).not.toBe(0);
    expect(taken.stderr).toContain('A running browser named "checkout-agent" exists');
    expect((await run(['browsers', 'rename', id, ''])).stdout).toBe(
      `✓ Browser ${id} has no name.\n`,
    );
    expect((await run(['browsers', 'rename', other, 'checkout-agent'])).code).toBe(0);
    expect((await run(['browsers', 'delete', 'checkout-agent'])).code).toBe(0);
    expect((await run(['browsers', 'get', other, '--json'])).stdout).toContain('deleted_at');
  });

  it('browsers live prints a live view link; --mode read, --ttl-seconds, --open', async () => {
    const id = await newBrowser();
    const control = await run(['browsers', 'live', id]);
    expect(control.code).toBe(0);
    expect(control.stdout).toMatch(
      new RegExp(`^http://[^ ]+/browsers/${id}/live\\?jwt=[\\w.-]+\n$`),
    );
    const read = onlyJson(
      (await run(['browsers', 'live', id, '--mode', 'read', '--ttl-seconds', '600', '--json']))
        .stdout,
    ) as {
      mode: string;
      expires_at: string;
    };
    expect(read.mode).toBe('read');
    expect(Date.parse(read.expires_at) - Date.now()).toBeLessThanOrEqual(600_000);
    fake.journal.assertCalled('browsers.liveView.create', {
      body: { mode: 'read', ttl_seconds: 600 },
    });
    // --open hands the URL to $BROWSER; with none to be found, says so and still succeeds.
    const folder = scratchFolder();
    const opened = join(folder, 'opened.txt');
    const browser = join(folder, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`, { mode: 0o755 });
    const withBrowser = await run(['browsers', 'live', id, '--open'], {
      env: { BROWSER: browser },
    });
    expect(withBrowser.code).toBe(0);
    await expect
      .poll(() => existsSync(opened) && readFileSync(opened, 'utf8'), { timeout: 10_000 })
      .toBe(withBrowser.stdout.trim());
    const without = await run(['browsers', 'live', id, '--open'], {
      env: { BROWSER: join(folder, 'none') },
    });
    expect(without.code).toBe(0);
    expect(without.stderr).toContain('open the URL above yourself');
  });

  it('computer type types the text, or stdin with -; --json prints {}', async () => {
    const id = await newBrowser();
    expect(await run(['computer', 'type', id, 'héllo 世界 👋', '--delay', '1'])).toMatchObject({
      code: 0,
      stdout: `✓ Typed 10 characters into ${id}.\n`,
    });
    const piped = await run(['computer', 'type', id, '-', '--json'], { stdin: '\nfrom stdin' });
    expect(onlyJson(piped.stdout)).toEqual({});
    expect(fake.typedText(id)).toBe('héllo 世界 👋\nfrom stdin');
    // `echo text | xb computer type <id> -`: the line ending echo adds is not typed (no Enter);
    // only that one: a blank line before it is the text's own.
    await run(['computer', 'type', id, '-'], { stdin: ' echoed\n' });
    await run(['computer', 'type', id, '-'], { stdin: ' two\n\n' });
    await run(['computer', 'type', id, '-'], { stdin: ' crlf\r\n' });
    expect(fake.typedText(id)).toBe('héllo 世界 👋\nfrom stdin echoed two\n crlf');
  });

  it('computer screenshot saves a PNG with -o, and says how when -o is missing', async () => {
    const id = await newBrowser();
    const folder = scratchFolder();
    const saved = await run(['computer', 'screenshot', id, '-o', 'shot.png'], { cwd: folder });
    expect(saved.code).toBe(0);
    expect(saved.stdout).toMatch(/Saved the screenshot to .*shot\.png \(\d+ bytes\)/);
    expect(readFileSync(join(folder, 'shot.png')).subarray(1, 4).toString()).toBe('PNG');
    const json = await run(['computer', 'screenshot', id, '-o', 'again.png', '--json'], {
      cwd: folder,
    });
    expect(onlyJson(json.stdout)).toMatchObject({ path: join(folder, 'again.png') });
    const piped = await run(['computer', 'screenshot', id, '-o', '-']);
    expect(piped.stdoutChunks.length).toBeGreaterThan(0);
    // On a terminal, a missing -o says how to give one; redirected (`> shot.png`), stdout is it.
    const missing = await run(['computer', 'screenshot', id], { isTTY: true });
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toContain('-o shot.png');
    expect(missing.stderr).toContain('> shot.png');
    const redirected = await run(['computer', 'screenshot', id]);
    expect(redirected).toMatchObject({ code: 0, stderr: '' });
    const png = Buffer.concat(redirected.stdoutChunks.map((chunk) => Buffer.from(chunk)));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    // --json keeps stdout for its document: a file is asked for.
    expect((await run(['computer', 'screenshot', id, '--json'])).code).toBe(2);
  });

  it('replays start, list, stop and download', async () => {
    const id = await newBrowser();
    const started = v.parse(
      ReplaySchema,
      onlyJson((await run(['replays', 'start', id, '--framerate', '5', '--json'])).stdout),
    );
    expect((await run(['replays', 'list', id])).stdout).toMatch(
      new RegExp(`${started.replay_id} .+recording`),
    );
    const folder = scratchFolder();
    const stop = await run(['replays', 'stop', id, started.replay_id]);
    expect(stop.stdout).toContain(`Stopped replay ${started.replay_id}`);
    const download = await run(['replays', 'download', id, started.replay_id, '-o', 'replay.mp4'], {
      cwd: folder,
    });
    expect(download.code).toBe(0);
    expect(readFileSync(join(folder, 'replay.mp4')).subarray(4, 8).toString()).toBe('ftyp');
  });

  it('replays download waits while the replay is still recording, then saves it', async () => {
    const id = await newBrowser();
    const started = onlyJson((await run(['replays', 'start', id, '--json'])).stdout) as {
      replay_id: string;
    };
    const folder = scratchFolder();
    const download = run(['replays', 'download', id, started.replay_id, '-o', 'late.mp4'], {
      cwd: folder,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(join(folder, 'late.mp4'))).toBe(false);
    await run(['replays', 'stop', id, started.replay_id]);
    expect((await download).code).toBe(0);
    expect(existsSync(join(folder, 'late.mp4'))).toBe(true);
    expect(fake.journal.count('browsers.replays.download')).toBeGreaterThanOrEqual(2);
  });
});
