import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { useFakeService } from '@x/testing/vitest';
import { operations } from '@x/types';
import { describe, expect, it } from 'vitest';
import type { CommandSet, CommandSpec } from './commands/command.js';
import { COMMANDS, findCommand, GROUPS } from './commands/registry.js';
import { scratchFolder, xb } from './test-support/run-xb.js';

const fake = useFakeService({ listen: true });

describe('xb', () => {
  it('has a command for every operation of the catalog', () => {
    const covered = new Set(
      COMMANDS.flatMap((command) => [command.operation, ...(command.alsoServes ?? [])]),
    );
    expect(
      operations.map((operation) => operation.name).filter((name) => !covered.has(name)),
    ).toEqual([]);
  });

  it('registers every command of every file, each in a group some file introduces once', async () => {
    const folder = new URL('./commands/', import.meta.url);
    const files = readdirSync(folder).filter((name) => /^[a-z-]+\.ts$/.test(name));
    const registered = new Set(COMMANDS);
    const isCommand = (value: unknown): value is CommandSpec =>
      typeof (value as CommandSpec | null)?.group === 'string' &&
      typeof (value as CommandSpec).run === 'function';
    let exported = 0;
    for (const file of files) {
      const module = (await import(`./commands/${file.replace(/\.ts$/, '.js')}`)) as Record<
        string,
        unknown
      >;
      // A command, a list of them, or a file's set: whatever a file exports must be registered.
      for (const value of Object.values(module)) {
        const set = value as Partial<CommandSet> | null;
        const commands = Array.isArray(set?.commands)
          ? set.commands
          : [value].flat().filter(isCommand);
        for (const command of commands) {
          exported += 1;
          expect(registered.has(command), `${file}: ${command.group} ${command.name}`).toBe(true);
        }
      }
    }
    expect(exported).toBeGreaterThan(COMMANDS.length);
    const names = GROUPS.map((group) => group.name);
    expect(new Set(names).size).toBe(names.length);
    for (const command of COMMANDS) {
      expect(names, command.group).toContain(command.group);
      // Each command is the one its words find (a group that is a command takes no names).
      expect(findCommand(command.group, command.name), `${command.group} ${command.name}`).toBe(
        command,
      );
    }
    for (const name of names) {
      expect(
        COMMANDS.some((command) => command.group === name),
        name,
      ).toBe(true);
    }
  });

  it('prints its version, help with the exit codes, and help with an example for every command', async () => {
    expect((await xb(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect((await xb(['-v'])).stdout).toBe((await xb(['--version'])).stdout);
    const help = await xb(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(
      'Exit codes:\n  0    ok\n  1    unexpected error\n  2    usage or bad input',
    );
    expect(help.stdout).toContain('130  interrupted (Ctrl-C)');
    for (const command of COMMANDS) {
      const argv = [command.group, command.name, '--help'].filter(Boolean);
      const commandHelp = await xb(argv);
      expect(commandHelp.code, argv.join(' ')).toBe(0);
      expect(commandHelp.stdout).toMatch(/\nUsage: xb .+\n/);
      expect(commandHelp.stdout).toMatch(/\nExample: xb /);
    }
    expect((await xb(['pools', '--help'])).stdout).toContain('xb pools acquire <id-or-name>');
    expect((await xb(['computer', 'type', '--help'])).stdout).toContain(
      '--delay <ms>  pause between keystrokes, ms, ≥ 0, default 0',
    );
    expect((await xb(['pools', 'release', '--help'])).stdout).toContain('--[no-]reuse');
  });

  it('answers usage errors with exit 2 and a message that says how to fix them', async () => {
    const cases: [string[], string][] = [
      [[], 'Usage: xb <group> <command>'],
      [['brwosers', 'list'], 'Unknown command group "brwosers". Did you mean "browsers"?'],
      [['browsers'], 'Give a command: see `xb browsers --help`.'],
      [
        ['browsers', 'lsit'],
        'Unknown command "lsit" in browsers. Did you mean "list"? See `xb browsers --help`.',
      ],
      [
        ['computer', 'type', 'br_x7Hq2K9mN4pL'],
        'Missing <text>. Usage: xb computer type <browser> <text>',
      ],
      [['computer', 'type', 'br_x7Hq2K9mN4pL', 'a', 'b'], 'Unexpected argument "b".'],
      [
        ['computer', 'type', 'br_x7Hq2K9mN4pL', 'a', '--delay', 'soon'],
        '--delay must be a number, e.g. --delay 10; got "soon".',
      ],
      [
        ['computer', 'type', 'br_x7Hq2K9mN4pL', 'a', '--delay', '-5'],
        '--delay needs a value; write one that starts with a dash as --delay=-1.',
      ],
      [
        ['computer', 'type', 'br_x7Hq2K9mN4pL', 'a', '--delay=-5'],
        'Invalid input: delay: must be >= 0',
      ],
      [
        ['computer', 'type', 'br_x7Hq2K9mN4pL', 'a', '--dealy', '5'],
        'Unknown flag --dealy. Did you mean "--delay"? See `xb computer type --help`.',
      ],
      [['--verison'], 'Unknown flag --verison. Did you mean "--version"? See `xb --help`.'],
      [['browsers', 'create', '--viewport', '1280x800'], '--viewport must be JSON'],
      [['browsers', 'get', 'bad id!'], 'Invalid input: id: must be 1–255 characters'],
      [['computer', 'type', 'bad id!', 'x'], 'Invalid input: id: must be 1–64 characters'],
    ];
    for (const [argv, message] of cases) {
      const result = await xb(argv, { fake });
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr, argv.join(' ')).toContain(message);
      expect(result.stdout).toBe('');
      // One line and a hint, never the whole help, except with nothing at all to go on.
      if (argv.length > 0) expect(result.stderr.trim().split('\n'), argv.join(' ')).toHaveLength(1);
    }
    expect(fake.journal.entries).toHaveLength(0);
  });

  it('maps the service’s answers to exit codes 3, 4 and 5, naming the code and request id', async () => {
    const notFound = await xb(['browsers', 'get', 'br_missing'], { fake });
    expect(notFound.code).toBe(5);
    expect(notFound.stderr).toBe(
      `error: No browser session "br_missing". (not_found, request ${fake.journal.last()?.requestId})\n`,
    );
    const denied = await xb(['browsers', 'create'], {
      fake,
      env: { XB_TOKEN: fake.tokens.readOnlyToken },
    });
    expect(denied.code).toBe(4);
    expect(denied.stderr).toMatch(
      /^error: This token may only read; browsers\.create acts\. \(forbidden, request req_\w+\)\n$/,
    );
    fake.inject(
      {
        type: 'error',
        status: 409,
        body: {
          code: 'conflict',
          message: 'Busy.',
          details: [{ code: 'x', message: 'try later' }],
        },
        headers: {},
      },
      { times: 1 },
    );
    const conflict = await xb(['browsers', 'list'], { fake });
    expect(conflict).toMatchObject({ code: 3 });
    expect(conflict.stderr).toMatch(/^error: Busy\. try later\. \(conflict, request req_\w+\)\n$/);
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const unreachable = await xb(
      [
        'browsers',
        'list',
        '--base-url',
        `http://127.0.0.1:${closedPort}`,
        '--request-timeout',
        '5',
      ],
      { env: { XB_TOKEN: 't' } },
    );
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr).toMatch(
      /^error: browsers\.list: could not reach GET http:\/\/127\.0\.0\.1:\d+\/browsers \(ECONNREFUSED\)\. \(connection_error\)\n$/,
    );
  });

  it('colors a terminal, and not under NO_COLOR, --no-color, --json or off a terminal', async () => {
    await xb(['browsers', 'create'], { fake });
    const ESC = String.fromCharCode(27);
    expect((await xb(['browsers', 'list'], { fake, isTTY: true })).stdout).toContain(`${ESC}[1mID`);
    expect(
      (await xb(['browsers', 'list'], { fake, isTTY: true, env: { NO_COLOR: '1' } })).stdout,
    ).not.toContain(ESC);
    expect(
      (await xb(['browsers', 'list', '--no-color'], { fake, isTTY: true })).stdout,
    ).not.toContain(ESC);
    expect((await xb(['browsers', 'list', '--json'], { fake, isTTY: true })).stdout).not.toContain(
      ESC,
    );
    expect((await xb(['browsers', 'list'], { fake })).stdout).not.toContain(ESC);
    expect((await xb(['browsers', 'get', 'br_missing'], { fake, isTTY: true })).stderr).toContain(
      `${ESC}[31merror:`,
    );
  });

  it('shows upload progress and wait spinners on a terminal only, never with --json', async () => {
    const zip = join(scratchFolder(), 'big.zip');
    const { buildExtensionArchive } = await import('@x/testing');
    writeFileSync(
      zip,
      buildExtensionArchive({
        files: {
          'manifest.json': '{"manifest_version":3,"name":"b","version":"1"}',
          'blob.bin': randomBytes(3 * 1024 * 1024),
        },
      }),
    );
    fake.inject({ type: 'latency', ms: 150 }, { operation: 'extensions.upload' });
    const onTerminal = await xb(['extensions', 'upload', zip], {
      fake,
      isTTY: true,
      overHttp: true,
    });
    expect(onTerminal.code).toBe(0);
    expect(onTerminal.stderr).toMatch(
      /\[=+\] 100% {2}3\.0 MiB \/ 3\.0 MiB {2}[\d.]+ [KMG]?i?B\/s\n$/,
    );
    const quiet = await xb(['extensions', 'upload', zip, '--json'], {
      fake,
      isTTY: true,
      overHttp: true,
    });
    expect(quiet.stderr).toBe('');
    const piped = await xb(['extensions', 'upload', zip], { fake, overHttp: true });
    expect(piped.stderr).toBe('');

    await xb(['pools', 'create', 'busy', '--size', '1'], { fake });
    await xb(['pools', 'acquire', 'busy'], { fake });
    const waiting = await xb(['pools', 'acquire', 'busy', '--acquire-timeout-seconds', '1'], {
      fake,
      isTTY: true,
    });
    expect(waiting.stderr).toContain('Waiting for a browser of pool busy…');
    const waitingJson = await xb(
      ['pools', 'acquire', 'busy', '--acquire-timeout-seconds', '1', '--json'],
      { fake, isTTY: true },
    );
    expect(waitingJson.stderr).not.toContain('Waiting');
    expect(waitingJson.stderr).toContain(
      'No browser of pool busy came free within 1 s (the service answered 204).\n',
    );
  });
});

describe('xb completion', () => {
  it('prints scripts for bash, zsh and fish that offer the groups, commands and flags', async () => {
    const bash = (await xb(['completion', 'bash'])).stdout;
    const folder = scratchFolder();
    writeFileSync(join(folder, 'xb.bash'), bash);
    const complete = (words: string[]) => {
      const script = `source ${join(folder, 'xb.bash')}; COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _xb; echo "\${COMPREPLY[@]}"`;
      return spawnSync('bash', ['-c', script], { encoding: 'utf8' }).stdout.trim().split(' ');
    };
    expect(complete(['xb', 'po'])).toEqual(['pools']);
    expect(complete(['xb', 'pools', 'ac'])).toEqual(['acquire']);
    expect(complete(['xb', 'computer', 'type', '--de'])).toEqual(['--delay']);
    expect(complete(['xb', 'pools', 'release', '--no-r'])).toEqual(['--no-reuse']);
    const zsh = (await xb(['completion', 'zsh'])).stdout;
    expect(zsh).toMatch(/^#compdef xb\n/);
    expect(zsh).toContain('"computer type") compadd -- --delay');
    const fish = (await xb(['completion', 'fish'])).stdout;
    expect(fish).toContain(
      `complete -c xb -n "not __fish_seen_subcommand_from ${GROUPS.map((group) => group.name).join(' ')}" -a pools -d 'Keep pools of warm browsers; acquire and release them'`,
    );
    expect(fish).toContain('-l acquire-timeout-seconds');
    expect((await xb(['completion', 'tcsh'])).stderr).toBe(
      'error: Unknown shell "tcsh": use bash, zsh or fish.\n',
    );
  });
});
