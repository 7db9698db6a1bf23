import type { EventStream } from '@x/client';
import type {
  AuthConnection,
  AuthContext,
  AuthEvent,
  AuthTimelineEvent,
  LoginResponse,
} from '@x/types';
import { CliError, usageError } from '../cli-error.js';
import { EXIT_CODES } from '../exit-codes.js';
import type { Colors } from '../output/colors.js';
import { formatTime, renderRecord, renderTable } from '../output/format.js';
import type { CommandContext, CommandSet, CommandSpec } from './command.js';
import { callOperation, listShow, operationCommand, printResult } from './define.js';
import { readStdin } from './files.js';
import { Prompter } from './prompt.js';

const CONNECTION = { name: '<id>', field: 'id' } as const;

type StateEvent = Extract<AuthEvent, { event: 'managed_auth_state' }>;

function connectionTable(colors: Colors, connections: readonly AuthConnection[]): string {
  return renderTable(
    colors,
    ['ID', 'DOMAIN', 'PROFILE', 'STATUS', 'FLOW', 'CHECKED'],
    connections.map((connection) => [
      colors.cyan(connection.id),
      connection.domain,
      connection.profile_name,
      connection.status === 'AUTHENTICATED' ? colors.green(connection.status) : connection.status,
      connection.flow_status
        ? `${connection.flow_status} ${connection.flow_step ?? ''}`.trim()
        : '-',
      connection.last_auth_check_at ? formatTime(connection.last_auth_check_at) : '-',
    ]),
  );
}

function connectionView(colors: Colors, connection: AuthConnection): string {
  const credential = connection.credential;
  return renderRecord(colors, {
    id: colors.cyan(connection.id),
    domain: connection.domain,
    profile: connection.profile_name,
    status: connection.status,
    credential: credential
      ? (credential.name ?? `${credential.provider}:${credential.path ?? 'auto'}`)
      : colors.dim('none'),
    login_url: connection.login_url,
    health_checks: connection.health_checks
      ? `every ${connection.health_check_interval} s${connection.auto_reauth ? ', signs in again' : ''}`
      : 'off',
    can_reauth: `${connection.can_reauth ? 'yes' : 'no'} (${connection.can_reauth_reason})`,
    flow: connection.flow_status
      ? `${connection.flow_type} ${connection.flow_status} ${connection.flow_step ?? ''}`.trim()
      : undefined,
    error: connection.error_message ?? undefined,
    hosted_url: connection.hosted_url ?? undefined,
    checked: connection.last_auth_check_at ? formatTime(connection.last_auth_check_at) : undefined,
    created: formatTime(connection.created_at),
  });
}

function timelineTable(colors: Colors, entries: readonly AuthTimelineEvent[]): string {
  return renderTable(
    colors,
    ['WHEN', 'TYPE', 'STATUS', 'STEP', 'ERROR'],
    entries.map((entry) => [
      formatTime(entry.timestamp),
      entry.type,
      entry.status,
      entry.step ?? '-',
      entry.error_message ?? '',
    ]),
  );
}

/** Who the token is, and the project a call acts in. */
function contextView(colors: Colors, context: AuthContext): string {
  const { authentication: how, authorization: reach } = context;
  return renderRecord(colors, {
    credential: `${colors.cyan(how.credential_id ?? '-')} (${how.credential_name})`,
    kind: how.auth_strategy === 'operator_token' ? 'operator token' : 'API key',
    access: reach.read_only ? colors.yellow('read-only') : 'full',
    reaches: reach.credential_scope.project_id ?? 'every project',
    acts_in: reach.effective_scope.project_id ?? colors.dim('no project'),
    organization: context.organization.id,
  });
}

/** A field as a question: its label, and what it is for. */
function question(field: { label?: string | undefined; id: string; type: string }): string {
  return `${field.label || field.id}${field.type === 'text' ? '' : ` (${field.type.replace('_', ' ')})`}: `;
}

/**
 * Follows a flow to its end: each step said on stderr, the fields it asks for asked in the
 * terminal (secrets unseen) and submitted, the live view's link given for a person's step.
 * Exits 0 once signed in, 3 when the flow failed, expired or was canceled.
 */
async function followFlow(context: CommandContext, id: string): Promise<void> {
  const { stderr } = context.io;
  const colors = context.errorColors;
  const prompter = new Prompter(context);
  const stream = await callOperation<EventStream<AuthEvent>>(context, 'auth.connections.events', {
    id,
  });
  let lastStep = '';
  let end: StateEvent | undefined;
  try {
    for await (const event of stream) {
      if (event.event !== 'managed_auth_state') continue;
      if (context.isJson) context.printJson(event);
      const step = `${event.flow_status}/${event.flow_step}`;
      if (event.flow_status !== 'IN_PROGRESS') {
        end = event;
        break;
      }
      if (step === lastStep) continue;
      lastStep = step;
      if (event.flow_step === 'AWAITING_INPUT' && event.fields) {
        stderr.write(
          `${colors.yellow('?')} The site asks for ${event.fields.map((field) => field.label || field.id).join(', ')}.\n`,
        );
        const values: Record<string, string> = {};
        for (const field of event.fields)
          values[field.id] = await prompter.ask(
            question(field),
            field.type === 'password' ||
              field.type.includes('code') ||
              field.type === 'totp_secret',
          );
        await callOperation(context, 'auth.connections.submit', { id, field_values: values });
      } else if (event.flow_step === 'AWAITING_EXTERNAL_ACTION') {
        stderr.write(
          `${colors.yellow('!')} ${event.external_action_message ?? 'A person must finish this step.'}\n  ${event.hosted_url ?? ''}\n`,
        );
      } else if (!context.isJson) {
        stderr.write(`${colors.dim('…')} ${event.flow_step?.toLowerCase().replace('_', ' ')}\n`);
      }
    }
  } finally {
    await stream.close();
  }
  if (end?.flow_status === 'SUCCESS') {
    if (!context.isJson)
      context.print(`${context.colors.green('✓')} Signed in; the profile is saved.`);
    return;
  }
  const why = end
    ? `${end.flow_status.toLowerCase()}: ${end.error_message ?? 'no reason given'}${end.website_error ? ` (the site said: ${end.website_error})` : ''}`
    : 'its events ended before it did';
  throw new CliError(`The sign-in ${why}`, EXIT_CODES.api);
}

/** `xb auth …`: auth connections, sign-ins followed in the terminal, and who the token is. */
export const authCommands: CommandSpec[] = [
  operationCommand<AuthContext>('auth', 'context', 'auth.context.get', {
    example: 'xb auth context --project staging',
    show: (context, found) => contextView(context.colors, found),
  }),
  operationCommand<AuthConnection>('auth', 'create', 'auth.connections.create', {
    example:
      'xb auth create --domain shop.example.com --profile-name agent --credential \'{"name":"shop-login"}\'',
    show: (context, connection) => connectionView(context.colors, connection),
  }),
  operationCommand<AuthConnection[]>('auth', 'list', 'auth.connections.list', {
    example: 'xb auth list --domain shop.example.com',
    show: listShow(connectionTable, 'No auth connections.'),
  }),
  operationCommand<AuthConnection>('auth', 'get', 'auth.connections.get', {
    args: [CONNECTION],
    example: 'xb auth get auth_x7Hq2K9mN4pL',
    show: (context, connection) => connectionView(context.colors, connection),
  }),
  operationCommand<AuthConnection>('auth', 'update', 'auth.connections.update', {
    args: [CONNECTION],
    example: 'xb auth update auth_x7Hq2K9mN4pL --health-check-interval 1800',
    show: (context, connection) => connectionView(context.colors, connection),
  }),
  operationCommand('auth', 'delete', 'auth.connections.delete', {
    args: [CONNECTION],
    example: 'xb auth delete auth_x7Hq2K9mN4pL',
    show: (context) => `${context.colors.green('✓')} Deleted auth connection ${context.input.id}.`,
  }),
  operationCommand<LoginResponse>('auth', 'login', 'auth.connections.login', {
    args: [CONNECTION],
    summary:
      'Sign in: start a flow and follow it, asking here for what the site wants (--detach: start it only).',
    flags: [
      {
        name: 'detach',
        kind: 'boolean',
        description: 'start the flow and print it, without following it',
      },
    ],
    example: 'xb auth login auth_x7Hq2K9mN4pL',
    show: (context, login) =>
      renderRecord(context.colors, {
        id: context.colors.cyan(login.id),
        flow: login.flow_type,
        expires: formatTime(login.flow_expires_at),
        hosted_url: login.hosted_url,
      }),
    run: async (context, show) => {
      const login = await callOperation<LoginResponse>(context, 'auth.connections.login');
      if (context.flags.detach === true) {
        if (context.isJson) context.printJson(login);
        else context.print(show(context, login));
        return;
      }
      context.io.stderr.write(
        `${context.errorColors.dim('Signing in; watch or finish it at')} ${login.hosted_url}\n`,
      );
      await followFlow(context, login.id);
    },
  }),
  operationCommand<{ accepted: boolean }>('auth', 'submit', 'auth.connections.submit', {
    args: [CONNECTION],
    example: 'xb auth submit auth_x7Hq2K9mN4pL --field-values - < answers.json',
    run: async (context, show) => {
      // `-` reads the values (a JSON object) from stdin: secrets stay out of the process list.
      if (context.input.field_values === '-') {
        try {
          context.input.field_values = JSON.parse(await readStdin(context));
        } catch {
          throw usageError(
            '--field-values - reads a JSON object from stdin, e.g. {"password":"…"}.',
          );
        }
      }
      printResult(
        context,
        await callOperation<{ accepted: boolean }>(context, 'auth.connections.submit'),
        show,
      );
    },
    show: (context, result) =>
      result.accepted
        ? `${context.colors.green('✓')} Accepted; the flow goes on.`
        : 'Not accepted: the flow no longer waits for them.',
  }),
  operationCommand('auth', 'events', 'auth.connections.events', {
    args: [CONNECTION],
    example: 'xb auth events auth_x7Hq2K9mN4pL',
    show: () => '',
    run: async (context) => {
      const stream = await callOperation<EventStream<AuthEvent>>(
        context,
        'auth.connections.events',
      );
      try {
        for await (const event of stream) {
          if (context.isJson) context.printJson(event);
          else if (event.event === 'managed_auth_state')
            context.print(
              `${formatTime(event.timestamp)}  ${event.flow_status} ${event.flow_step}${event.error_message ? `  ${event.error_message}` : ''}`,
            );
        }
      } finally {
        await stream.close();
      }
    },
  }),
  operationCommand<AuthTimelineEvent[]>('auth', 'timeline', 'auth.connections.timeline', {
    args: [CONNECTION],
    example: 'xb auth timeline auth_x7Hq2K9mN4pL --type health_check',
    show: listShow(timelineTable, 'Nothing yet.'),
  }),
];

/** `xb auth`: the group and its commands. */
export const authSet: CommandSet = {
  groups: [
    {
      name: 'auth',
      summary:
        'Keep profiles signed in to sites: sign in (asking here for what is missing), checks; who the token is',
    },
  ],
  commands: authCommands,
};
