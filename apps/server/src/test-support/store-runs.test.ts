import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { assertInPostgresRun, isSameOnEitherStore, leftOutOfPostgresRun } from './store-runs.js';

describe('the PostgreSQL run', () => {
  it('leaves out a cluster test and a file that can start no server on the suite store', () => {
    expect(isSameOnEitherStore('src/cluster/cluster.test.ts', "from '../test-support/x.js'")).toBe(
      true,
    );
    expect(isSameOnEitherStore('src/system/a.test.ts', "import { a } from './a.js';")).toBe(true);
  });

  it('keeps a file that reaches the test support, the server, its startup or its store', () => {
    const kept = [
      ['src/pools/a.test.ts', "import { useTestServer } from '../test-support/servers.js';"],
      ['src/test-support/a.test.ts', "import { testConfig } from './servers.js';"],
      ['src/store/a.test.ts', "import { openStore } from './service-store.js';"],
      ['src/startup/a.test.ts', "const { start } = await import('./engines.js');"],
      ['src/a.test.ts', "import { startServer } from './server.js';"],
      ['src/http/a.test.ts', "import { main } from '../main.js';"],
      ['src/http/a.test.ts', 'process.env.XB_TEST_POSTGRES_URL'],
      ['src/http/a.test.ts', "spawn(process.execPath, ['dist/main.js'])"],
    ] as const;
    for (const [file, text] of kept) expect(isSameOnEitherStore(file, text), text).toBe(false);
  });

  it("fails a file it leaves out that takes the suite's store", () => {
    expect(() => assertInPostgresRun('src/cluster/x.test.ts', '')).toThrow(
      /the PostgreSQL run leaves it out/,
    );
    expect(() =>
      assertInPostgresRun('src/a.test.ts', "import './test-support/servers.js';"),
    ).not.toThrow();
  });

  it('leaves out no file that starts a server on the suite store (this one included)', () => {
    const left = leftOutOfPostgresRun(fileURLToPath(new URL('../../', import.meta.url)));
    expect(left).toContain('src/cluster/cluster.test.ts');
    expect(left).not.toContain('src/server.test.ts');
    expect(left).not.toContain('src/test-support/store-runs.test.ts');
  });
});
