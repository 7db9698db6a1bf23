import { readFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { useFakeService } from '@x/testing/vitest';
import { describe, expect, it } from 'vitest';
import { createClient } from './client/create-client.js';

const fake = useFakeService({ listen: true });
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

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
