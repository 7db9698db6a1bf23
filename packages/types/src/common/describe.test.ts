import { describe, expect, it } from 'vitest';
import type { Operation } from '../catalog/operation.js';
import { operations } from '../catalog/operations.js';
import * as exported from '../index.js';
import { fieldDescription } from './describe.js';

interface Node {
  readonly type?: string;
  readonly entries?: Record<string, Node>;
  readonly wrapped?: Node;
  readonly pipe?: readonly Node[];
  readonly item?: Node;
  readonly options?: readonly Node[];
}

/** Every object field reachable from `schema`, as `where.field` with its schema. */
function fields(
  schema: Node | undefined,
  where: string,
  found: Map<string, Node>,
  seen: Set<Node>,
) {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
  seen.add(schema);
  for (const [name, entry] of Object.entries(schema.entries ?? {})) {
    found.set(`${where}.${name}`, entry);
    fields(entry, `${where}.${name}`, found, seen);
  }
  fields(schema.wrapped, where, found, seen);
  fields(schema.item, where, found, seen);
  for (const item of schema.pipe ?? []) if (item !== schema) fields(item, where, found, seen);
  for (const option of schema.options ?? []) fields(option, where, found, seen);
}

describe('descriptions', () => {
  it('every field of every schema and of every operation’s request carries one', () => {
    const found = new Map<string, Node>();
    for (const [name, value] of Object.entries(exported)) {
      if (name.endsWith('Schema')) fields(value as Node, name, found, new Set());
    }
    for (const operation of operations as readonly Operation[]) {
      for (const [where, schema] of [
        ['path', operation.pathParams],
        ['query', operation.query],
        ['body', operation.body?.schema],
      ] as const) {
        fields(schema as Node | undefined, `${operation.name} ${where}`, found, new Set());
      }
    }
    const missing = [...found].filter(([, schema]) => !fieldDescription(schema)).map(([at]) => at);
    expect(missing).toEqual([]);
    expect(found.size).toBeGreaterThan(300);
  });

  it('say the default where there is one', () => {
    const delay = exported.TypeTextBodySchema.pipe[0].entries.delay;
    expect(fieldDescription(delay)).toBe('pause between keystrokes, ms, ≥ 0, default 0');
    expect(fieldDescription(exported.ListBrowsersQuerySchema.entries.status)).toContain(
      'default active',
    );
  });
});
