import type { ContractContext } from './context.js';

/** One black-box check of the contract. */
export interface ContractCheck {
  /** Area of the API: `common`, `browsers`, `pools`, … */
  readonly area: string;
  /** What it checks, as a sentence. */
  readonly name: string;
  run(context: ContractContext): Promise<void>;
}

/** Turns a table of named checks into the suite's entries. */
export function defineChecks(
  area: string,
  checks: Record<string, (context: ContractContext) => Promise<void>>,
): ContractCheck[] {
  return Object.entries(checks).map(([name, run]) => ({ area, name, run }));
}
