/**
 * The main job, until the self-hosted server exists: prints the operation catalog, writes the
 * OpenAPI 3.1 document, then starts the fake service of @x/testing on loopback and drives every
 * area of the API through @x/client, saving what it made under out/.
 * Run through `bash scripts/demo.sh`, which builds the packages first.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createClient } from '@x/client';
import { saveToFile } from '@x/client/node';
import { buildExtensionArchive, createFakeService } from '@x/testing';
import { operations, successStatuses } from '@x/types';
import { createOpenApiDocument } from '@x/types/openapi';

const rows = operations.map((operation) => [
  operation.specSection ?? '',
  operation.method,
  operation.path,
  operation.name,
  successStatuses(operation).join(','),
]);
const widths = [4, 6, 52, 28, 7];
const header = ['§', 'method', 'path', 'operation', 'success'];
for (const row of [header, ...rows]) {
  console.log(row.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join(' '));
}

mkdirSync('out', { recursive: true });
writeFileSync('out/openapi.json', `${JSON.stringify(createOpenApiDocument(), null, 2)}\n`);
console.log(`\n${operations.length} operations; OpenAPI 3.1 document written to out/openapi.json`);

// The self-hosted server (apps/server) is not built yet: the same calls go to the fake service.
const fake = createFakeService();
const baseUrl = await fake.listen();
console.log(`\nFake service listening at ${baseUrl} (the self-hosted server is not built yet)`);
const client = createClient({ baseUrl, token: fake.tokens.token });
const step = (text: string) => console.log(`  ✓ ${text}`);

try {
  const invocation = await client.invocations.create({ action_name: 'checkout', app_name: 'demo' });
  const browser = await client.browsers.create({
    invocation_id: invocation.id,
    viewport: { width: 1280, height: 800 },
  });
  const id = browser.session_id;
  step(`browser ${id} created (cdp ${new URL(browser.cdp_ws_url).pathname})`);
  const replay = await client.browsers.replays.start({ id, framerate: 10 });
  await client.browsers.computer.type({ id, text: 'héllo 世界 👋\n', delay: 5 });
  step(`typed ${JSON.stringify(fake.typedText(id))}`);
  await saveToFile(await client.browsers.computer.screenshot({ id }), 'out/screenshot.png');
  step('screenshot saved to out/screenshot.png');
  await client.browsers.replays.stop({ id, replay_id: replay.replay_id });
  const video = await client.browsers.replays.download({ id, replay_id: replay.replay_id });
  if (video.status === 200) await saveToFile(video.value, 'out/replay.mp4');
  step(`replay ${replay.replay_id} stopped and saved to out/replay.mp4`);
  const exec = await client.browsers.process.exec({
    id,
    command: 'echo',
    args: ['from', 'the', 'instance'],
  });
  step(
    `exec echo → ${JSON.stringify(Buffer.from(exec.stdout_b64, 'base64').toString())}, exit ${exec.exit_code}`,
  );
  const spawned = await client.browsers.process.spawn({ id, command: 'sleep', args: ['30'] });
  const status = await client.browsers.process.status({ id, process_id: spawned.process_id });
  step(`process ${spawned.process_id} is ${status.state}`);
  await client.browsers.process.kill({ id, process_id: spawned.process_id });
  const watch = await client.browsers.fs.watch.start({ id, path: '/home/browser/Downloads' });
  const events = await client.browsers.fs.watch.events({ id, watch_id: watch.watch_id });
  await client.browsers.process.exec({
    id,
    command: 'touch',
    args: ['/home/browser/Downloads/report.pdf'],
  });
  for await (const event of events) {
    step(`watch saw ${event.type} ${'path' in event ? event.path : ''}`);
    break;
  }
  await client.browsers.fs.watch.stop({ id, watch_id: watch.watch_id });
  const extension = await client.extensions.upload({
    file: new Blob([buildExtensionArchive() as Uint8Array<ArrayBuffer>]),
    name: 'demo-extension',
  });
  step(`extension ${extension.id} uploaded (${extension.size_bytes} bytes)`);
  await client.browserPools.create({
    name: 'demo-pool',
    size: 2,
    extensions: [{ name: 'demo-extension' }],
  });
  const acquired = await client.browserPools.acquire({ id_or_name: 'demo-pool' });
  const pool = await client.browserPools.get({ id_or_name: 'demo-pool' });
  step(`pool demo-pool: ${pool.available_count} available, ${pool.acquired_count} acquired`);
  if (acquired.status === 200)
    await client.browserPools.release({
      id_or_name: 'demo-pool',
      session_id: acquired.value.session_id,
    });
  const { browsers } = await client.invocations.listBrowsers({ id: invocation.id });
  step(`invocation ${invocation.id} has ${browsers.length} browser(s)`);
  await client.invocations.update({ id: invocation.id, status: 'succeeded' });
  console.log(
    `\n${fake.journal.entries.length} calls made; out/ holds openapi.json, screenshot.png, replay.mp4`,
  );
} finally {
  await fake.close();
}
