import type { FlagSpec } from './commands/command.js';

/** Flags every command takes. */
export const GLOBAL_FLAGS: readonly FlagSpec[] = [
  {
    name: 'json',
    kind: 'boolean',
    description: 'print exactly one JSON document on stdout (one per line for streams)',
  },
  {
    name: 'color',
    kind: 'boolean',
    description: 'color on a terminal (default; --no-color or NO_COLOR turn it off)',
  },
  {
    name: 'base-url',
    kind: 'string',
    placeholder: '<url>',
    description: 'the service (else XB_BASE_URL, the profile, http://127.0.0.1:8080)',
  },
  {
    name: 'token',
    kind: 'string',
    placeholder: '<token>',
    description: 'bearer token (else XB_TOKEN, the profile)',
  },
  {
    name: 'project',
    kind: 'string',
    placeholder: '<id-or-name>',
    description:
      "the project to act in (else XB_PROJECT, the profile; else the key's own or the default)",
  },
  {
    name: 'profile',
    kind: 'string',
    placeholder: '<name>',
    description: 'profile of the config file (else XB_PROFILE, default)',
  },
  {
    name: 'request-timeout',
    kind: 'number',
    placeholder: '<s>',
    description: 'seconds one attempt may take (default 60)',
  },
  { name: 'help', kind: 'boolean', short: 'h', description: 'show help' },
  { name: 'version', kind: 'boolean', short: 'v', description: 'print the version' },
];
