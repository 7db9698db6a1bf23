import { useFakeService } from '@x/testing/vitest';
import { CredentialSchema } from '@x/types';
import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { createColors } from '../output/colors.js';
import { onlyJson, TRANSPORTS, xbAgainst } from '../test-support/run-xb.js';
import { catalogCommands, showAnswer } from './catalog-commands.js';
import type { CommandContext } from './command.js';
import { computerSet } from './computer.js';
import { credentialSet } from './credentials.js';
import { deploySet } from './deploy.js';
import { extensionSet } from './extensions.js';
import { findIn, SETS } from './registry.js';

/*
 * Every operation has a command file today, so `xb` runs here with the credentials file left
 * out, as an area added to the service without one: its commands come from the catalog.
 */
vi.mock('./registry.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('./registry.js')>();
  const { credentialSet: left } = await import('./credentials.js');
  const xb = real.commandsOf(real.SETS.filter((set) => set !== left));
  return {
    ...real,
    GROUPS: xb.groups,
    COMMANDS: xb.commands,
    findCommand: (group: string, name: string | undefined) => real.findIn(xb.commands, group, name),
  };
});

const fake = useFakeService({ listen: true });
const without = (left: unknown) => SETS.filter((set) => set !== left);

describe('commands from the catalog', () => {
  it('serve each operation no file serves, named and grouped by the operation', () => {
    const derived = catalogCommands(without(credentialSet));
    const credentials = derived.commands.filter((command) =>
      command.group.startsWith('credential'),
    );
    expect(credentials.map((command) => `${command.group} ${command.name}`)).toEqual([
      'credential-providers create',
      'credential-providers delete',
      'credential-providers get',
      'credential-providers items',
      'credential-providers list',
      'credential-providers test',
      'credential-providers update',
      'credentials create',
      'credentials delete',
      'credentials get',
      'credentials list',
      'credentials totp-code',
      'credentials update',
    ]);
    expect(derived.groups.map((group) => group.name)).toEqual(
      expect.arrayContaining(['credentials', 'credential-providers']),
    );
    const get = credentials.find(
      (command) => `${command.group} ${command.name}` === 'credentials get',
    );
    expect(get?.args).toEqual([{ name: '<id-or-name>', field: 'id_or_name' }]);
    expect(get?.example).toBe('xb credentials get <id-or-name>');
    const create = credentials.find(
      (command) => `${command.group} ${command.name}` === 'credentials create',
    );
    expect(create?.example).toBe(
      'xb credentials create --domain <text> --name <text> --values <json>',
    );
    // With every file, none of them is derived.
    expect(
      catalogCommands(SETS).commands.filter((command) => command.group.startsWith('credential')),
    ).toEqual([]);
  });

  it('sit beside the commands of their prefix, and leave uploads and streams to a file', () => {
    const computer = catalogCommands(without(computerSet)).commands.map(
      (command) => `${command.group} ${command.name}`,
    );
    expect(computer).toContain('computer click-mouse');
    expect(computer).toContain('computer batch');
    const extensions = catalogCommands(without(extensionSet)).commands.map(
      (command) => `${command.group} ${command.name}`,
    );
    expect(extensions).toContain('extensions list');
    // An upload and a download need a file of their own.
    expect(extensions).not.toContain('extensions upload');
    expect(extensions).not.toContain('extensions download');
  });

  it('show what the service holds, never run it: control characters are spelled out', () => {
    const context = { colors: createColors(false) } as CommandContext;
    const hostile = 'x\u001b]0;owned\u0007\nid  forged\u009b';
    const record = showAnswer(context, { name: hostile, tags: { note: hostile } });
    expect(record).toBe(
      [
        'name  x\\u001b]0;owned\\u0007\\u000aid  forged\\u009b',
        'tags  {"note":"x\\u001b]0;owned\\u0007\\nid  forged\\u009b"}',
      ].join('\n'),
    );
    const table = showAnswer(context, [{ name: hostile }]);
    const isControl = (code: number) => code < 0x20 || (code >= 0x7f && code <= 0x9f);
    expect(table.split('\n')).toHaveLength(2);
    for (const line of table.split('\n')) {
      expect(
        [...line].some((character) => isControl(character.charCodeAt(0))),
        line,
      ).toBe(false);
    }
    expect(showAnswer(context, undefined)).toBe('✓ Done.');
    expect(showAnswer(context, [])).toBe('None.');
  });

  it('stay out of a group that is a command itself, where no name after it would reach them', () => {
    // `xb deploy <dir>` is deployments.create: a derived `deploy list` could never be called.
    const left = ['deployments.list', 'deployments.get', 'deployments.delete'];
    const sets = SETS.map((set) =>
      set === deploySet
        ? {
            ...set,
            commands: set.commands.filter((command) => !left.includes(command.operation ?? '')),
          }
        : set,
    );
    const all = [...sets.flatMap((set) => set.commands), ...catalogCommands(sets).commands];
    for (const name of left) {
      const command = all.find((entry) => entry.operation === name);
      expect(command?.group, name).toBe('deployments');
      expect(findIn(all, command?.group ?? '', command?.name)).toBe(command);
    }
  });
});

describe.each(TRANSPORTS)('a command from the catalog (%s)', (_, overHttp) => {
  const { run } = xbAgainst(fake, overHttp);

  it('calls its operation with its arguments and flags, and shows the answer', async () => {
    const name = `derived-${overHttp ? 'http' : 'direct'}`;
    const help = await run(['credentials', '--help']);
    expect(help.stdout).toContain('xb credentials totp-code <id-or-name>');
    const created = await run([
      'credentials',
      'create',
      '--name',
      name,
      '--domain',
      'shop.example.com',
      '--values',
      '{"username":"agent","password":"pw"}',
      '--json',
    ]);
    expect(created.stderr).toBe('');
    const credential = v.parse(CredentialSchema, onlyJson(created.stdout));
    expect(credential.value_keys).toEqual(['password', 'username']);
    const shown = await run(['credentials', 'get', name]);
    expect(shown.stdout).toMatch(new RegExp(`^name +${name}$`, 'm'));
    expect(shown.stdout).toMatch(/^domain +shop\.example\.com$/m);
    const listed = await run(['credentials', 'list', '--domain', 'shop.example.com']);
    expect(listed.stdout).toMatch(/^ID +NAME +DOMAIN/);
    expect(listed.stdout).toContain(credential.id);
    const bad = await run(['credentials', 'create', '--name', name]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/domain/);
    expect((await run(['credentials', 'delete', name])).stdout).toBe('✓ Done.\n');
    const gone = await run(['credentials', 'get', name]);
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toMatch(/not found|No credential/i);
  });
});
