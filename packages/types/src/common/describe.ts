import { type BaseSchema, description, pipe } from 'valibot';

/**
 * A schema with a description for people: what the field is, its unit, range and default. The
 * OpenAPI document shows it, and `xb --help` shows it beside the field's flag.
 */
// @__NO_SIDE_EFFECTS__
export function described<
  const TSchema extends BaseSchema<unknown, unknown, import('valibot').BaseIssue<unknown>>,
>(schema: TSchema, text: string) {
  return pipe(schema, description(text));
}

/**
 * The description of a field's schema, looking through `optional`, `nullable` and `pipe`
 * wrappers (the outermost description wins); undefined when it has none.
 */
export function fieldDescription(schema: unknown): string | undefined {
  for (let current = schema as SchemaLike | undefined; current; ) {
    const action = current.pipe?.find(
      (item): item is SchemaLike & { description: string } => item.type === 'description',
    );
    if (action) return action.description;
    current = current.wrapped ?? (current.pipe?.[0] === current ? undefined : current.pipe?.[0]);
  }
  return undefined;
}

interface SchemaLike {
  readonly type: string;
  readonly wrapped?: SchemaLike;
  readonly pipe?: readonly SchemaLike[];
}
