import { useFakeService } from '@x/testing/vitest';
import { describe, expect, it } from 'vitest';
import { onlyJson, TRANSPORTS, xbAgainst } from '../test-support/run-xb.js';

const fake = useFakeService({ listen: true });

describe.each(TRANSPORTS)('curl commands (%s)', (_, overHttp) => {
  const { run, newBrowser } = xbAgainst(fake, overHttp);

  it('browsers curl prints the body, the status and headers with -i, and JSON with --json', async () => {
    const id = await newBrowser();
    fake.scriptSite('https://shop.example', (request) => ({
      status: 201,
      headers: [['content-type', 'text/plain']],
      body: `${request.method} ${request.body ?? ''}`,
    }));
    expect(
      await run([
        'browsers',
        'curl',
        id,
        'https://shop.example/cart',
        '--method',
        'POST',
        '--body',
        'apples',
      ]),
    ).toMatchObject({ code: 0, stdout: 'POST apples' });
    expect((await run(['browsers', 'curl', id, 'https://shop.example/', '-i'])).stdout).toBe(
      'HTTP 201\ncontent-type: text/plain\n\nGET ',
    );
    expect(
      onlyJson((await run(['browsers', 'curl', id, 'https://shop.example/', '--json'])).stdout),
    ).toMatchObject({
      status: 201,
      headers: { 'content-type': ['text/plain'] },
    });
    const nowhere = await run(['browsers', 'curl', id, 'https://nowhere.example/']);
    expect(nowhere.code).not.toBe(0);
    expect(nowhere.stderr).toMatch(/nowhere\.example/);
  });
});
