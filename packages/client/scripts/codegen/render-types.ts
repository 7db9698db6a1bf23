/**
 * Renders a named, documented TypeScript type for every operation's input and answer, every
 * record the answers hold, and the client's methods as plain interfaces, all from the operation
 * catalog of @x/types; `render-areas.ts` puts each in its area's file. An editor then shows
 * `TypeTextInput` with each field's description, not a catalog type to unfold, and checking a
 * call costs no schema inference. A type test proves each type equal to what the schemas infer.
 */
import * as types from '@x/types';
import { fieldDescription, type Operation, operationFields, successStatuses } from '@x/types';

/** A valibot schema or action, as far as the renderer reads it. */
interface Node {
  readonly kind: string;
  readonly type: string;
  readonly pipe?: readonly Node[];
  readonly wrapped?: Node;
  readonly default?: unknown;
  readonly entries?: Readonly<Record<string, Node>>;
  readonly rest?: Node;
  readonly item?: Node;
  readonly items?: readonly Node[];
  readonly key?: Node | string;
  readonly value?: Node;
  readonly options?: readonly unknown[];
  readonly literal?: unknown;
}

type Mode = 'input' | 'output';

/** Schemas whose types the runtime cannot tell (a `custom` check), by what they are. */
const CUSTOM_TYPES = new Map<unknown, Record<Mode, string>>([
  [types.JsonObjectSchema, { input: 'Record<string, unknown>', output: 'Record<string, unknown>' }],
  [
    types.BinaryContentSchema.entries.content.pipe[0],
    { input: 'UploadSource', output: 'UploadSource' },
  ],
]);

/** Exported schemas that are not records of their own: a request's parts, a list, a scalar. */
const UNNAMED = /(Body|Query|Path|Form|List|Param)Schema$/;
const NAMED_TYPES = new Set(['object', 'strict_object', 'loose_object', 'variant', 'picklist']);
/** Names that would read wrong or clash with a global. */
const RENAMED: Record<string, string> = { Error: 'ErrorBody', Proxy: 'ProxyConfig' };

const OPTIONAL = new Set(['optional', 'exact_optional', 'nullish', 'undefinedable']);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** The record each exported record schema is named as (`BrowserSessionSchema` → BrowserSession). */
function schemaNames(): Map<unknown, { readonly name: string; readonly exported: string }> {
  const names = new Map<unknown, { readonly name: string; readonly exported: string }>();
  for (const [exported, value] of Object.entries(types)) {
    if (!exported.endsWith('Schema') || UNNAMED.test(exported)) continue;
    const node = value as Node;
    if (node?.kind !== 'schema' || !NAMED_TYPES.has(node.type)) continue;
    const base = exported.slice(0, -'Schema'.length);
    names.set(value, { name: RENAMED[base] ?? base, exported });
  }
  return names;
}

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** A JSDoc block of these lines, or nothing when there are none. */
export function doc(lines: readonly string[]): string {
  const text = lines
    .flatMap((line) => line.split('\n'))
    .map((line) => line.replace(/\*\//g, '*\\/'));
  if (text.length === 0) return '';
  if (text.length === 1) return `/** ${text[0]} */\n`;
  return `/**\n${text.map((line) => ` *${line ? ` ${line}` : ''}`).join('\n')}\n */\n`;
}

/** The literal default of a field, for its doc (a computed default says nothing useful). */
function defaultOf(schema: Node): string | undefined {
  for (let node: Node | undefined = schema; node; node = node.wrapped) {
    if (OPTIONAL.has(node.type) || node.type === 'nullable') {
      const value = node.default;
      if (value === undefined || typeof value === 'function') return undefined;
      return JSON.stringify(value);
    }
    if (node.pipe === undefined) return undefined;
  }
  return undefined;
}

function union(members: readonly string[]): string {
  const unique = [...new Set(members)];
  if (unique.includes('unknown')) return 'unknown';
  return unique.join(' | ');
}

/** Whether a type's text is one object literal (`{ … }`, not `{ … } | { … }`). */
function isObjectLiteral(text: string): boolean {
  if (!text.startsWith('{')) return false;
  let depth = 0;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (character === '{') depth += 1;
    else if (character === '}') {
      depth -= 1;
      if (depth === 0) return index === text.length - 1;
    }
  }
  return false;
}

/** A declaration of a type by name: an interface for an object literal, else an alias. */
function declaration(name: string, text: string): string {
  return isObjectLiteral(text)
    ? `export interface ${name} ${text}`
    : `export type ${name} = ${text};`;
}

/** The unit of a union inside an array or beside `| undefined`. */
const grouped = (type: string) =>
  /[|&]/.test(type) && !isObjectLiteral(type) ? `(${type})` : type;

export class TypeRenderer {
  private readonly names = schemaNames();
  /** The records' declarations by type name, in the order they were first needed. */
  readonly records = new Map<string, string>();
  /** The name of the schema of @x/types each record is rendered from, by type name. */
  readonly recordSchemas = new Map<string, string>();
  /** Every other declaration (an operation's input and answer) by type name. */
  readonly declarations = new Map<string, string>();
  private readonly taken = new Set<string>();

  /** Reserves a name for a declaration the caller writes; a clash is a generator bug. */
  reserve(name: string): string {
    if (this.taken.has(name)) throw new Error(`two types would be named ${name}`);
    this.taken.add(name);
    return name;
  }

  /** The TypeScript type of a schema, as a caller writes it (`input`) or receives it (`output`). */
  render(schema: Node, mode: Mode): string {
    const named = this.named(schema, mode);
    if (named) return named;
    return this.structure(schema, mode);
  }

  /** The name of a record schema, declaring it the first time; undefined for any other schema. */
  private named(schema: Node, mode: Mode): string | undefined {
    // A record described where it is used is a pipe of the record and its description.
    const piped = schema.pipe
      ?.slice(1)
      .every((item) => item.kind !== 'schema' && item.kind !== 'transformation');
    const found = this.names.get(schema) ?? (piped ? this.names.get(schema.pipe?.[0]) : undefined);
    if (!found) return undefined;
    const base = found.name;
    const text = this.structure(schema, mode);
    // A record that reads differently as sent (defaults left out) has a name of its own then,
    // unless it is only ever sent (its output, past a transformation, has no type to tell).
    let name = base;
    if (mode === 'input' && !base.endsWith('Input')) {
      let output: string | undefined;
      try {
        output = this.structure(schema, 'output');
      } catch {
        output = undefined;
      }
      if (output !== undefined && output !== text) name = `${base}Input`;
    }
    if (!this.records.has(name)) {
      this.reserve(name);
      this.records.set(name, declaration(name, text));
      this.recordSchemas.set(name, found.exported);
    }
    return name;
  }

  private structure(schema: Node, mode: Mode): string {
    const custom = CUSTOM_TYPES.get(schema) ?? CUSTOM_TYPES.get(schema.pipe?.[0]);
    if (custom) return custom[mode];
    if (mode === 'output' && schema.pipe) {
      // What comes out of a pipe is what its last schema gives (actions only check).
      let last: Node = schema;
      for (const item of schema.pipe.slice(1)) {
        if (item.kind === 'schema') last = item;
        else if (item.kind === 'transformation') {
          throw new Error(`cannot tell what the transformation ${item.type} outputs`);
        }
      }
      if (last !== schema) return this.render(last, mode);
    }
    switch (schema.type) {
      case 'string':
        return 'string';
      case 'number':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'null':
        return 'null';
      case 'undefined':
        return 'undefined';
      case 'unknown':
        return 'unknown';
      case 'blob':
        return mode === 'input' ? 'UploadSource' : 'Blob';
      case 'literal':
        return JSON.stringify(schema.literal);
      case 'picklist':
        return union((schema.options ?? []).map((option) => JSON.stringify(option)));
      case 'optional':
      case 'exact_optional':
      case 'undefinedable':
      case 'nullish':
      case 'nullable': {
        const inner = this.render(schema.wrapped as Node, mode);
        const defaulted = mode === 'output' && schema.default !== undefined;
        const extra = [
          ...(schema.type === 'nullish' || schema.type === 'nullable' ? ['null'] : []),
          ...(schema.type === 'nullable' ? [] : ['undefined']),
        ];
        return defaulted ? inner : union([inner, ...extra]);
      }
      case 'array':
        return `${grouped(this.render(schema.item as Node, mode))}[]`;
      case 'tuple':
        return `[${(schema.items ?? []).map((item) => this.render(item, mode)).join(', ')}]`;
      case 'record': {
        const key = this.render(schema.key as Node, mode);
        const value = this.render(schema.value as Node, mode);
        return key === 'string' ? `{ [key: string]: ${value} }` : `{ [K in ${key}]?: ${value} }`;
      }
      case 'union':
      case 'variant':
        return union(
          (schema.options as Node[]).map((option) => grouped(this.render(option, mode))),
        );
      case 'object':
      case 'strict_object':
      case 'loose_object':
        return this.object(schema.entries ?? {}, mode);
      default:
        throw new Error(`no TypeScript type for a ${schema.type} schema`);
    }
  }

  /** An object type of these entries, each with its description. */
  object(entries: Readonly<Record<string, Node>>, mode: Mode): string {
    const fields = Object.entries(entries).map(([key, schema]) => {
      const lines = [fieldDescription(schema)].filter((line): line is string => Boolean(line));
      const fallback = defaultOf(schema);
      if (fallback !== undefined && !lines.some((line) => line.includes('default'))) {
        lines.push(`@default ${fallback}`);
      }
      const optional =
        OPTIONAL.has(schema.type) && (mode === 'input' || schema.default === undefined);
      const name = IDENTIFIER.test(key) ? key : JSON.stringify(key);
      return `${doc(lines)}${name}${optional ? '?' : ''}: ${this.render(schema, mode)};`;
    });
    return fields.length === 0 ? '{}' : `{\n${fields.join('\n')}\n}`;
  }
}

/** The name a value is exported under from @x/types. */
export function exportName(value: unknown): string {
  const found = Object.entries(types).find(([, exported]) => exported === value)?.[0];
  if (!found) throw new Error(`not exported from @x/types: ${String(value)}`);
  return found;
}

/** The name an operation's function is exported under (`getBrowserPoolOperation` → getBrowserPool). */
export function functionName(operation: Operation): string {
  return exportName(operation).replace(/Operation$/, '');
}

/** What one operation's input, answer and method are, by name. */
export interface OperationTypes {
  readonly input: string;
  /** Whether every input field may be left out (the input then may be too). */
  readonly inputOptional: boolean;
  /** What the call resolves to (a list: one record; see `paginated`). */
  readonly result: string;
  readonly paginated: boolean;
  /** The method's type as it is written: `(input: X, options?: CallOptions) => CallPromise<Y>`. */
  readonly signature: string;
  /** The types declared for this operation alone (its input, and its answer when unnamed). */
  readonly declared: readonly string[];
}

function accessNote(operation: Operation): string {
  if (operation.access === 'read') return 'any token, read-only ones too';
  return 'a full token (a read-only token is refused)';
}

/** The doc of an operation's method and function. */
export function operationDoc(operation: Operation): string[] {
  const section = operation.specSection ? ` (§${operation.specSection} of the interface)` : '';
  return [
    operation.summary,
    '',
    `\`${operation.method} ${operation.path}\`${section}: ${accessNote(operation)}.`,
    `Errors: ${operation.errorStatuses.join(', ')}.`,
  ];
}

/** Renders every operation's types; `types` is filled with the declarations they need. */
export function renderOperationTypes(renderer: TypeRenderer): Map<Operation, OperationTypes> {
  const result = new Map<Operation, OperationTypes>();
  for (const operation of types.operations as readonly Operation[]) {
    const name = pascal(functionName(operation));
    const fields = operationFields(operation);
    const entries: Record<string, Node> = {};
    for (const schema of [operation.pathParams, operation.query, operation.body?.schema]) {
      Object.assign(entries, types.schemaEntries(schema) as Record<string, Node>);
    }
    const input = renderer.reserve(`${name}Input`);
    const inputOptional = Object.values(entries).every((schema) => OPTIONAL.has(schema.type));
    const where = [
      fields.path.length > 0 ? 'path parameters' : '',
      fields.query.length > 0 ? 'query parameters' : '',
      fields.body.length > 0
        ? `${operation.body?.encoding === 'json' ? 'body' : 'form'} fields`
        : '',
    ].filter(Boolean);
    const inputDoc = [
      where.length === 0
        ? `What \`${operation.name}\` takes: nothing.`
        : `What \`${operation.name}\` takes: its ${where.join(', ')}${where.length > 1 ? ', side by side' : ''}.`,
    ];
    const fieldsType = renderer.object(entries, 'input');
    renderer.declarations.set(
      input,
      // No field at all: an alias, as an empty interface would accept anything.
      `${doc(inputDoc)}${fieldsType === '{}' ? `export type ${input} = Record<never, never>;` : declaration(input, fieldsType)}`,
    );
    const answers = successStatuses(operation).map((status) => {
      const response = operation.responses[status];
      switch (response?.kind) {
        case 'json':
          return { status, type: renderer.render(response.schema as Node, 'output') };
        case 'event-stream':
          return {
            status,
            type: `EventStream<${renderer.render(response.eventSchema as Node, 'output')}>`,
          };
        case 'binary':
          return { status, type: 'BinaryBody' };
        default:
          return { status, type: 'undefined' };
      }
    });
    let value =
      answers.length === 1
        ? (answers[0]?.type ?? 'undefined')
        : answers
            .map((answer) => `{ status: ${answer.status}; value: ${answer.type} }`)
            .join(' | ');
    const paginated = operation.paginated === true;
    if (paginated) value = value.replace(/\[\]$/, '').replace(/^\((.*)\)$/, '$1');
    let resultName = value;
    const declared = [input];
    // An answer with no name of its own (an inline object, several statuses) gets one.
    if (!/^(EventStream<)?[A-Z]\w*(\[\])?>?$/.test(value) && value !== 'undefined') {
      resultName = renderer.reserve(`${name}${paginated ? 'Item' : 'Result'}`);
      const answerDoc = [
        `What \`${operation.name}\` ${paginated ? 'lists, one record' : 'answers'}.`,
      ];
      renderer.declarations.set(resultName, `${doc(answerDoc)}${declaration(resultName, value)}`);
      declared.push(resultName);
    }
    const promise = paginated ? `PagePromise<${resultName}>` : `CallPromise<${resultName}>`;
    result.set(operation, {
      input,
      inputOptional,
      result: resultName,
      paginated,
      signature: `(input${inputOptional ? '?' : ''}: ${input}, options?: CallOptions) => ${promise}`,
      declared,
    });
  }
  return result;
}

/** The client's method groups as interfaces: `ClientMethods`, `BrowsersMethods`, … */
export function renderMethodGroups(
  byOperation: Map<Operation, OperationTypes>,
  renderer: TypeRenderer,
): string[] {
  interface Group {
    readonly methods: string[];
    readonly children: Map<string, Group>;
  }
  const root: Group = { methods: [], children: new Map() };
  for (const [operation, rendered] of byOperation) {
    const path = operation.name.split('.');
    const method = path.pop() as string;
    let group = root;
    for (const segment of path) {
      let child = group.children.get(segment);
      if (!child) {
        child = { methods: [], children: new Map() };
        group.children.set(segment, child);
      }
      group = child;
    }
    const signature = rendered.signature.replace(/^\((.*)\) => (.*)$/, `${method}($1): $2;`);
    group.methods.push(`${doc(operationDoc(operation))}${signature}`);
  }
  const out: string[] = [];
  const walk = (group: Group, path: readonly string[]) => {
    const name = renderer.reserve(
      `${path.map(pascal).join('')}${path.length === 0 ? 'Client' : ''}Methods`,
    );
    const members = [
      ...[...group.children.keys()].map(
        (segment) =>
          `${doc([`The \`${[...path, segment].join('.')}\` operations.`])}readonly ${segment}: ${[...path, segment].map(pascal).join('')}Methods;`,
      ),
      ...group.methods,
    ];
    const what =
      path.length === 0
        ? 'Every operation of the API as a method, grouped as the API is.'
        : `The \`${path.join('.')}\` operations.`;
    out.push(`${doc([what])}export interface ${name} {\n${members.join('\n')}\n}`);
    for (const [segment, child] of group.children) walk(child, [...path, segment]);
  };
  walk(root, []);
  return out;
}
