/** Styles for terminal text; each is the identity when color is off. */
export interface Colors {
  readonly isEnabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const style = (open: number, close: number) => (text: string) =>
  `\u001b[${open}m${text}\u001b[${close}m`;

/** ANSI colors when `isEnabled`, plain text otherwise. */
export function createColors(isEnabled: boolean): Colors {
  const plain = (text: string) => text;
  return {
    isEnabled,
    bold: isEnabled ? style(1, 22) : plain,
    dim: isEnabled ? style(2, 22) : plain,
    red: isEnabled ? style(31, 39) : plain,
    green: isEnabled ? style(32, 39) : plain,
    yellow: isEnabled ? style(33, 39) : plain,
    cyan: isEnabled ? style(36, 39) : plain,
  };
}

/**
 * Whether to color a stream: only a terminal, never under a non-empty NO_COLOR (no-color.org)
 * or with `--no-color`.
 */
export function shouldColor(
  isTTY: boolean | undefined,
  env: Readonly<Record<string, string | undefined>>,
  noColorFlag: boolean,
): boolean {
  return Boolean(isTTY) && !noColorFlag && !env.NO_COLOR;
}
