import { usageError } from '../cli-error.js';
import { GLOBAL_FLAGS } from '../global-flags.js';
import type { CommandSet, CommandSpec, FlagSpec } from './command.js';

/** The shells `xb completion` writes scripts for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;

/** Every flag a command takes, as typed: `--delay`, `--no-reuse`, `-o`. */
function flagWords(flags: readonly FlagSpec[]): string[] {
  return flags.flatMap((flag) => [
    `--${flag.name}`,
    ...(flag.kind === 'boolean' ? [`--no-${flag.name}`] : []),
    ...(flag.short ? [`-${flag.short}`] : []),
  ]);
}

/** The words to complete at each position, from the command table. */
function completionTable({ groups, commands }: CommandSet) {
  const globals = flagWords(GLOBAL_FLAGS);
  return groups.map((group) => ({
    group: group.name,
    summary: group.summary,
    commands: commands
      .filter((command) => command.group === group.name)
      .map((command) => ({
        name: command.name,
        summary: command.summary,
        flags: [...flagWords(command.flags), ...globals],
      })),
  }));
}

function bashScript(xb: CommandSet): string {
  const table = completionTable(xb);
  const verbs = table.map(
    (group) =>
      `      ${group.group}) words="${group.commands.map((command) => command.name).join(' ')}" ;;`,
  );
  const flags = table.flatMap((group) =>
    group.commands.map(
      (command) => `      "${group.group} ${command.name}") words="${command.flags.join(' ')}" ;;`,
    ),
  );
  return `# bash completion for xb: source it, or save it as /etc/bash_completion.d/xb
_xb() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" words=""
  if [ "$COMP_CWORD" -eq 1 ]; then
    words="${table.map((group) => group.group).join(' ')} --help --version"
  elif [ "$COMP_CWORD" -eq 2 ]; then
    case "\${COMP_WORDS[1]}" in
${verbs.join('\n')}
    esac
  else
    case "\${COMP_WORDS[1]} \${COMP_WORDS[2]}" in
${flags.join('\n')}
    esac
    case "$cur" in
      -*) ;;
      *)
        # xb says what fits here: the running browsers (asked of the service), or file names.
        local answer
        answer=$("\${COMP_WORDS[0]}" __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
        if [ "\${answer%%$'\\n'*}" = browsers ]; then
          case "$answer" in *$'\\n'*) words="\${answer#*$'\\n'}" ;; *) words="" ;; esac
        else
          COMPREPLY=($(compgen -f -- "$cur"))
          return
        fi
        ;;
    esac
  fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F _xb xb
`;
}

function zshScript(xb: CommandSet): string {
  const table = completionTable(xb);
  const quote = (text: string) => `'${text.replaceAll("'", "'\\''").replaceAll(':', '\\:')}'`;
  const verbs = table.map(
    (group) =>
      `      ${group.group}) compadd -- ${group.commands.map((command) => command.name).join(' ')} ;;`,
  );
  const flags = table.flatMap((group) =>
    group.commands.map(
      (command) =>
        `      "${group.group} ${command.name}") compadd -- ${command.flags.join(' ')} ;;`,
    ),
  );
  return `#compdef xb
# zsh completion for xb: save it as _xb in a folder of $fpath, or eval "$(xb completion zsh)"
_xb() {
  if (( CURRENT == 2 )); then
    local -a groups=(${table.map((group) => quote(`${group.group}:${group.summary}`)).join(' ')})
    _describe 'command group' groups
  elif (( CURRENT == 3 )); then
    case $words[2] in
${verbs.join('\n')}
    esac
  else
    case "$words[2] $words[3]" in
${flags.join('\n')}
    esac
    # xb says what fits here: the running browsers (asked of the service), or file names.
    local -a answer=("\${(@f)$("$words[1]" __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
    if [[ \${answer[1]} == browsers ]]; then
      (( \${#answer} > 1 )) && compadd -- "\${(@)answer[2,-1]}"
    else
      _files
    fi
  fi
}
compdef _xb xb
`;
}

function fishScript(xb: CommandSet): string {
  const table = completionTable(xb);
  const quote = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  const groupNames = table.map((group) => group.group).join(' ');
  const lines = [
    '# fish completion for xb: save it as ~/.config/fish/completions/xb.fish',
    'complete -c xb -f',
    // xb says what fits after a command: the running browsers (asked of the service), or files.
    'function __xb_complete_arguments',
    '    set -l answer (xb __complete (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)',
    '    if test "$answer[1]" = browsers',
    "        printf '%s\\n' $answer[2..-1]",
    '    else',
    '        __fish_complete_path (commandline -ct)',
    '    end',
    'end',
    `complete -c xb -n "__fish_seen_subcommand_from ${groupNames}; and test (count (commandline -opc)) -ge 3" -a "(__xb_complete_arguments)"`,
  ];
  for (const group of table) {
    lines.push(
      `complete -c xb -n "not __fish_seen_subcommand_from ${groupNames}" -a ${group.group} -d ${quote(group.summary)}`,
    );
    const verbs = group.commands.map((command) => command.name).join(' ');
    for (const command of group.commands) {
      lines.push(
        `complete -c xb -n "__fish_seen_subcommand_from ${group.group}; and not __fish_seen_subcommand_from ${verbs}" -a ${command.name} -d ${quote(command.summary)}`,
      );
      const longFlags = command.flags
        .filter((flag) => flag.startsWith('--'))
        .map((flag) => `-l ${flag.slice(2)}`);
      for (const flag of longFlags) {
        lines.push(
          `complete -c xb -n "__fish_seen_subcommand_from ${group.group}; and __fish_seen_subcommand_from ${command.name}" ${flag}`,
        );
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

/** `xb completion <shell>`, completing what `xb` lists (every group and command, its own too). */
export const completionCommand = (xb: () => CommandSet): CommandSpec => ({
  group: 'completion',
  // The group is the command: `xb completion bash`.
  name: '',
  summary: 'Print the completion script for bash, zsh or fish.',
  args: [{ name: '<shell>' }],
  flags: [],
  example: 'xb completion bash > /etc/bash_completion.d/xb   (zsh: eval "$(xb completion zsh)")',
  async run(context) {
    const shell = context.args['<shell>'] as string;
    const scripts = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;
    if (!(SHELLS as readonly string[]).includes(shell))
      throw usageError(`Unknown shell "${shell}": use bash, zsh or fish.`);
    context.io.stdout.write(scripts[shell as keyof typeof scripts](xb()));
  },
});

/** `xb completion`: the group and its one command, completing what `xb` lists. */
export const completionSet = (xb: () => CommandSet): CommandSet => ({
  groups: [{ name: 'completion', summary: 'Print a shell completion script (bash, zsh, fish)' }],
  commands: [completionCommand(xb)],
});
