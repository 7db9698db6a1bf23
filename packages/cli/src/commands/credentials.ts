import type {
  Credential,
  CredentialProvider,
  CredentialProviderItems,
  CredentialProviderTestResult,
  TotpCode,
} from '@x/types';
import { usageError } from '../cli-error.js';
import type { Colors } from '../output/colors.js';
import { formatTime, renderRecord, renderTable } from '../output/format.js';
import type { CommandContext, CommandSet, CommandSpec } from './command.js';
import { callOperation, listShow, operationCommand, printResult } from './define.js';
import { readStdin, stdinForDash } from './files.js';

const CREDENTIAL = { name: '<id-or-name>', field: 'id_or_name' } as const;

/**
 * `--values -` reads the values (a JSON object) from stdin, `--totp-secret -` the secret (less
 * its final line ending): secrets then stay out of the shell's history and the process list.
 */
async function secretsFromStdin(context: CommandContext): Promise<void> {
  const { input } = context;
  if (input.values === '-' && input.totp_secret === '-')
    throw usageError('Only one of --values and --totp-secret can be read from stdin (-).');
  if (input.values === '-') {
    const text = await readStdin(context);
    try {
      input.values = JSON.parse(text);
    } catch {
      throw usageError(
        '--values - reads a JSON object from stdin, e.g. {"username":"…","password":"…"}.',
      );
    }
  }
  await stdinForDash(context, 'totp_secret', { trimNewline: true });
}

/** Credentials as a table (never a value). */
function credentialTable(colors: Colors, credentials: readonly Credential[]): string {
  return renderTable(
    colors,
    ['ID', 'NAME', 'DOMAIN', 'VALUES', 'TOTP', 'UPDATED'],
    credentials.map((credential) => [
      colors.cyan(credential.id),
      credential.name,
      credential.domain,
      credential.has_values ? 'yes' : '-',
      credential.has_totp_secret ? 'yes' : '-',
      formatTime(credential.updated_at),
    ]),
  );
}

/** One credential: the names of its values, never the values. */
function credentialView(colors: Colors, credential: Credential): string {
  return renderRecord(colors, {
    id: colors.cyan(credential.id),
    name: credential.name,
    domain: credential.domain,
    values: credential.value_keys?.length ? credential.value_keys.join(', ') : colors.dim('none'),
    totp: credential.has_totp_secret ? 'set' : colors.dim('none'),
    totp_code: credential.totp_code,
    sso_provider: credential.sso_provider ?? undefined,
    created: formatTime(credential.created_at),
    updated: formatTime(credential.updated_at),
  });
}

/** `xb credentials …`. */
export const credentialCommands: CommandSpec[] = [
  operationCommand<Credential>('credentials', 'create', 'credentials.create', {
    example:
      'xb credentials create --name shop-login --domain shop.example.com --values - < login.json',
    show: (context, credential) => credentialView(context.colors, credential),
    run: async (context, show) => {
      await secretsFromStdin(context);
      printResult(context, await callOperation<Credential>(context, 'credentials.create'), show);
    },
  }),
  operationCommand<Credential[]>('credentials', 'list', 'credentials.list', {
    example: 'xb credentials list --domain shop.example.com',
    show: listShow(credentialTable, 'No credentials.'),
  }),
  operationCommand<Credential>('credentials', 'get', 'credentials.get', {
    args: [CREDENTIAL],
    example: 'xb credentials get shop-login',
    show: (context, credential) => credentialView(context.colors, credential),
  }),
  operationCommand<Credential>('credentials', 'update', 'credentials.update', {
    args: [CREDENTIAL],
    example: 'xb credentials update shop-login --totp-secret - < secret.txt',
    show: (context, credential) => credentialView(context.colors, credential),
    run: async (context, show) => {
      await secretsFromStdin(context);
      printResult(context, await callOperation<Credential>(context, 'credentials.update'), show);
    },
  }),
  operationCommand('credentials', 'delete', 'credentials.delete', {
    args: [CREDENTIAL],
    example: 'xb credentials delete shop-login',
    show: (context) =>
      `${context.colors.green('✓')} Deleted credential ${context.input.id_or_name}.`,
  }),
  operationCommand<TotpCode>('credentials', 'totp', 'credentials.totpCode', {
    args: [CREDENTIAL],
    example: 'xb credentials totp shop-login',
    show: (context, code) =>
      `${code.code}  ${context.colors.dim(`(valid until ${formatTime(code.expires_at)})`)}`,
  }),
];

const PROVIDER = { name: '<id-or-name>', field: 'id_or_name' } as const;

/** Providers as a table (never a token). */
function providerTable(colors: Colors, providers: readonly CredentialProvider[]): string {
  return renderTable(
    colors,
    ['ID', 'NAME', 'TYPE', 'URL', 'ENABLED', 'PRIORITY'],
    providers.map((provider) => [
      colors.cyan(provider.id),
      provider.name,
      provider.provider_type,
      provider.url,
      provider.enabled ? 'yes' : 'no',
      String(provider.priority),
    ]),
  );
}

function providerView(colors: Colors, provider: CredentialProvider): string {
  return renderRecord(colors, {
    id: colors.cyan(provider.id),
    name: provider.name,
    type: provider.provider_type,
    url: provider.url,
    enabled: provider.enabled ? 'yes' : 'no',
    priority: String(provider.priority),
    cache: `${provider.cache_ttl_seconds} s`,
    projects: provider.allowed_projects?.join(', ') || 'none (organization-wide keys only)',
    created: formatTime(provider.created_at),
    updated: formatTime(provider.updated_at),
  });
}

/** `--provider-token -` reads the provider's token from stdin (less its final line ending). */
async function tokenFromStdin(context: CommandContext): Promise<void> {
  await stdinForDash(context, 'token', { trimNewline: true });
}

/** `xb credential-providers …`. */
export const credentialProviderCommands: CommandSpec[] = [
  operationCommand<CredentialProvider>(
    'credential-providers',
    'create',
    'credentialProviders.create',
    {
      example:
        'xb credential-providers create --name team-1p --provider-type onepassword --url https://connect.example.com --provider-token - < token.txt',
      show: (context, provider) => providerView(context.colors, provider),
      run: async (context, show) => {
        await tokenFromStdin(context);
        printResult(
          context,
          await callOperation<CredentialProvider>(context, 'credentialProviders.create'),
          show,
        );
      },
    },
  ),
  operationCommand<CredentialProvider[]>(
    'credential-providers',
    'list',
    'credentialProviders.list',
    {
      example: 'xb credential-providers list',
      show: listShow(providerTable, 'No credential providers.'),
    },
  ),
  operationCommand<CredentialProvider>('credential-providers', 'get', 'credentialProviders.get', {
    args: [PROVIDER],
    example: 'xb credential-providers get team-1p',
    show: (context, provider) => providerView(context.colors, provider),
  }),
  operationCommand<CredentialProvider>(
    'credential-providers',
    'update',
    'credentialProviders.update',
    {
      args: [PROVIDER],
      example: 'xb credential-providers update team-1p --provider-token - < new-token.txt',
      show: (context, provider) => providerView(context.colors, provider),
      run: async (context, show) => {
        await tokenFromStdin(context);
        printResult(
          context,
          await callOperation<CredentialProvider>(context, 'credentialProviders.update'),
          show,
        );
      },
    },
  ),
  operationCommand('credential-providers', 'delete', 'credentialProviders.delete', {
    args: [PROVIDER],
    example: 'xb credential-providers delete team-1p',
    show: (context) =>
      `${context.colors.green('✓')} Deleted credential provider ${context.input.id_or_name}.`,
  }),
  operationCommand<CredentialProviderTestResult>(
    'credential-providers',
    'test',
    'credentialProviders.test',
    {
      args: [PROVIDER],
      example: 'xb credential-providers test team-1p',
      show: (context, result) =>
        result.success
          ? `${context.colors.green('✓')} Reached; vaults: ${result.vaults.map((vault) => vault.name).join(', ') || 'none'}`
          : `${context.colors.red('✗')} ${result.error ?? 'failed'}`,
    },
  ),
  operationCommand<CredentialProviderItems>(
    'credential-providers',
    'items',
    'credentialProviders.items',
    {
      args: [PROVIDER],
      example: 'xb credential-providers items team-1p',
      show: (context, { items }) =>
        items.length === 0
          ? 'No login items.'
          : renderTable(
              context.colors,
              ['PATH', 'ID', 'SITES'],
              items.map((item) => [
                item.path,
                context.colors.cyan(item.id),
                (item.urls ?? []).join(' '),
              ]),
            ),
    },
  ),
];

/** `xb credentials` and `xb credential-providers`: the groups and their commands. */
export const credentialSet: CommandSet = {
  groups: [
    {
      name: 'credentials',
      summary: 'Keep logins sealed (values and TOTP secrets write-only); TOTP codes',
    },
    {
      name: 'credential-providers',
      summary: 'Read logins from your 1Password vaults (1Password Connect); test, list items',
    },
  ],
  commands: [...credentialCommands, ...credentialProviderCommands],
};
