// Rows come back from the database with snake_case columns, 0/1 flags, and numbers a driver may
// hand over as strings (PostgreSQL's int8); the rest of the server reads camelCase records with
// numbers and booleans. A repository declares only what differs from the plain rename, and the
// compiler checks that the result is exactly the record it promises: a column added to a table
// later (a secret, say) fails to compile until the mapping leaves it out or the record names it.
// Hand-written rather than Kysely's CamelCasePlugin: that plugin renames every query's columns too,
// and the repositories' SQL keeps the tables' own names.

/** `folder_id` → `folderId`, `is_2fa_enabled` → `is2faEnabled`. */
export type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** What a table's mapping changes beyond the rename. */
export interface RowShape<Row> {
  /** Read with Number(); null stays null. */
  readonly numbers?: readonly (keyof Row & string)[];
  /** 0/1 read as false/true. */
  readonly flags?: readonly (keyof Row & string)[];
  /** Read by a function of their own (JSON columns). */
  readonly decode?: { readonly [Column in keyof Row & string]?: (value: Row[Column]) => unknown };
  /** Left out of the record: never leave the repository through this mapping. */
  readonly omit?: readonly (keyof Row & string)[];
}

type Listed<Shape, Key extends string> = Shape extends { readonly [K in Key]: readonly (infer Column)[] } ? Column : never;
type Decoders<Shape> = Shape extends { readonly decode: infer D } ? D : Record<never, never>;
type NumberOf<Value> = null extends Value ? number | null : number;

/** The record a shape makes of a row. */
export type MappedRow<Row, Shape> = {
  [Column in Exclude<keyof Row & string, Listed<Shape, 'omit'>> as CamelCase<Column>]: Column extends keyof Decoders<Shape>
    ? Decoders<Shape>[Column] extends (value: never) => infer Decoded
      ? Decoded
      : never
    : Column extends Listed<Shape, 'numbers'>
      ? NumberOf<Row[Column]>
      : Column extends Listed<Shape, 'flags'>
        ? boolean
        : Row[Column];
};

type Exactly<Mapped, Out> = [Mapped] extends [Out]
  ? [Exclude<keyof Mapped, keyof Out>] extends [never]
    ? unknown
    : { readonly mappingAddsFields: Exclude<keyof Mapped, keyof Out> }
  : { readonly mappingDoesNotMake: Out };

function camelCase(column: string): string {
  return column.replace(/_([a-z0-9])/g, (_, next: string) => next.toUpperCase());
}

/**
 * `rowMapper<FileRow, FileRecord>()({ numbers: ['file_size'] })`: a function from the row to the
 * record. Every column of the row that the shape does not omit is copied under its camelCase name,
 * so give it rows of the table's own columns (a join's extra columns: take them off first).
 */
export function rowMapper<Row, Out>() {
  return <const Shape extends RowShape<Row>>(shape: Shape & Exactly<MappedRow<Row, Shape>, Out>): ((row: Row) => Out) => {
    const numbers = new Set<string>(shape.numbers ?? []);
    const flags = new Set<string>(shape.flags ?? []);
    const omitted = new Set<string>(shape.omit ?? []);
    const decoders = (shape.decode ?? {}) as Record<string, ((value: unknown) => unknown) | undefined>;
    const renamed = new Map<string, string>();
    return (row) => {
      const record: Record<string, unknown> = {};
      for (const [column, value] of Object.entries(row as Record<string, unknown>)) {
        if (omitted.has(column)) continue;
        let name = renamed.get(column);
        if (name === undefined) renamed.set(column, (name = camelCase(column)));
        const decode = decoders[column];
        if (decode) record[name] = decode(value);
        else if (numbers.has(column)) record[name] = value === null ? null : Number(value);
        else if (flags.has(column)) record[name] = value === 1;
        else record[name] = value;
      }
      return record as Out;
    };
  };
}

/** `folderId` → `folder_id`. A digit stays with the word before it (`is2faEnabled` → `is2fa_enabled`). */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

/** The columns `rowValues` writes for `fields` of `Input`. */
export type RowValues<Input, Field extends keyof Input & string> = { [F in Field as SnakeCase<F>]: Input[F] };

/**
 * The other way, for writes: `rowValues(input, ['folderId', 'fileSize'])` is `{ folder_id:
 * input.folderId, file_size: input.fileSize }`, ready for Kysely's `values()` or `set()`. Only the
 * fields named are written, so a record that carries more (an id copied from a read, a secret)
 * never reaches a column by accident. Columns whose name is not the field's snake_case (digits,
 * a value computed on the way) are added beside it by hand.
 */
export function rowValues<Input, const Field extends keyof Input & string>(input: Input, fields: readonly Field[]): RowValues<Input, Field> {
  const values: Record<string, unknown> = {};
  for (const field of fields) values[field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)] = input[field];
  return values as RowValues<Input, Field>;
}
