import { readFileSync } from 'node:fs';
import { createRequire, stripTypeScriptTypes } from 'node:module';
import { createClient } from '@x/client';
import { useFakeService } from '@x/testing/vitest';
import { describe, expect, it } from 'vitest';

const fake = useFakeService({ listen: true });
// The README beside the package, as the workspace links it.
const readme = readFileSync(
  createRequire(import.meta.url)
    .resolve('@x/client/package.json')
    .replace(/package\.json$/, 'README.md'),
  'utf8',
);

/** The first ```ts block under the heading `## <title>` of the README. */
function exampleUnder(title: string): string {
  const section = readme.split(`\n## ${title}\n`)[1]?.split('\n## ')[0] ?? '';
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error(`no ts example under ## ${title}`);
  return block;
}

describe('the README', () => {
  it('runs its example of every computer control, as written, against the fake', async () => {
    const code = exampleUnder('Computer controls');
    const client = createClient({ baseUrl: fake.url, token: fake.tokens.token });
    const { session_id: id } = await client.browsers.create();
    const printed: unknown[][] = [];
    const run = new Function(
      'client',
      'id',
      'console',
      `return (async () => {\n${stripTypeScriptTypes(code)}\n})();`,
    ) as (
      client: unknown,
      id: string,
      console: { log(...values: unknown[]): void },
    ) => Promise<void>;
    await run(client, id, { log: (...values) => printed.push(values) });
    // What its comments say it prints.
    expect(printed).toEqual([[300, 260], ['to paste'], ['image/png']]);
    // Every control it shows is a method of the client, and it shows every one.
    const controls = Object.keys(client.browsers.computer).sort();
    const shown = [...code.matchAll(/client\.browsers\.computer\.(\w+)\(/g)].map(
      (match) => match[1],
    );
    expect([...new Set(shown)].sort()).toEqual(controls);
    expect(fake.typedText(id)).toContain('hellobatched');
  });
});
