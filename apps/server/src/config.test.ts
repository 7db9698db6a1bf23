import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { describe, expect, it } from 'vitest';
import { readConfig } from './config.js';

describe('the configuration', () => {
  it('holds as many browsers by default as both the memory and the cores allow', () => {
    const { maxBrowsers } = readConfig({});
    const byMemory = Math.floor((totalmem() * 0.75) / (400 * 1024 * 1024));
    expect(maxBrowsers).toBe(Math.max(1, Math.min(byMemory, availableParallelism() * 4)));
    expect(readConfig({ XB_MAX_BROWSERS: '50' }).maxBrowsers).toBe(50);
  });

  it("runs Debian's Chromium binary by default, not the launcher script before it", () => {
    const { chromePath } = readConfig({});
    if (existsSync('/usr/lib/chromium/chromium')) {
      expect(chromePath).toBe('/usr/lib/chromium/chromium');
      // An executable, not a script.
      const file = openSync(chromePath, 'r');
      const head = Buffer.alloc(4);
      readSync(file, head, 0, 4, 0);
      closeSync(file);
      expect(head.toString('latin1')).toBe('\x7fELF');
    } else {
      expect(chromePath).toBe('/usr/bin/chromium');
    }
    expect(readConfig({ CHROME_PATH: '/usr/bin/chromium' }).chromePath).toBe('/usr/bin/chromium');
  });

  it('takes the log format asked for, and refuses another', () => {
    expect(readConfig({ XB_LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(readConfig({ XB_LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(() => readConfig({ XB_LOG_FORMAT: 'xml' })).toThrow(
      /XB_LOG_FORMAT must be json or pretty/,
    );
  });

  it("takes a node's address as an http origin, and says what it wants otherwise", () => {
    expect(readConfig({ XB_NODE_URL: 'http://10.0.0.12:8080' }).nodeUrl).toBe(
      'http://10.0.0.12:8080',
    );
    expect(readConfig({}).nodeUrl).toBeUndefined();
    for (const bad of [
      '10.0.0.12:8080',
      'https://node:8080',
      'http://node:8080/x',
      'http://a@node',
    ])
      expect(() => readConfig({ XB_NODE_URL: bad })).toThrow(/XB_NODE_URL must be the http origin/);
    expect(readConfig({ XB_DRAIN_SECONDS: '600' }).drainSeconds).toBe(600);
    expect(readConfig({}).drainSeconds).toBe(0);
  });

  it("takes the sessions' resolvers with their ports, and says what it wants otherwise", () => {
    expect(readConfig({}).sessionNameservers).toBeUndefined();
    expect(
      readConfig({ XB_SESSION_NAMESERVERS: '10.0.0.53, 127.0.0.1:5353' }).sessionNameservers,
    ).toEqual([
      { address: '10.0.0.53', port: 53 },
      { address: '127.0.0.1', port: 5353 },
    ]);
    for (const bad of ['dns.example', '10.0.0.1:0', '10.0.0.1:70000', '::1', '10.0.0.256', ','])
      expect(() => readConfig({ XB_SESSION_NAMESERVERS: bad })).toThrow(
        /XB_SESSION_NAMESERVERS must list IPv4 resolvers/,
      );
    expect(readConfig({ XB_SESSION_CA_FILE: 'ca.pem' }).sessionCaFile).toMatch(/\/ca\.pem$/);
  });
});
