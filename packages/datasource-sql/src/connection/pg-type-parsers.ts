import { builtinParser, parseTextArray } from '../values/pg-builtin-parsers';
import { toSafeNumber } from '../values/safe-number';

type Parser = (value: string) => unknown;

const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;
const TIMESTAMP = 1114;
const TIMESTAMPTZ = 1184;
const INT8_ARRAY = 1016;
const NUMERIC_ARRAY = 1231;
const DATE_ARRAY = 1182;
const TIMESTAMP_ARRAY = 1115;
const TIMESTAMPTZ_ARRAY = 1185;
const POINT = 600;
const INTERVAL = 1186;

const identity: Parser = (value) => value;

/**
 * Type parsers of one pool, passed to each `pg` client as its `types` (never installed on the
 * global `pg.types`, which belongs to the host application). Decisions:
 * `int8`/`numeric` → number when exact, string otherwise; `date` and timestamps → the server's
 * text (formatted to ISO by the value reader, so no local-time conversion happens here).
 */
export class PgTypeParsers {
  private readonly parsers = new Map<number, Parser>();

  constructor() {
    const textArray = parseTextArray;
    const numbers: Parser = (value) => toSafeNumber(value);
    const numberArray: Parser = (value) =>
      textArray(value).map((item) => (item === null ? null : toSafeNumber(item)));
    this.parsers.set(INT8, numbers);
    this.parsers.set(NUMERIC, numbers);
    this.parsers.set(INT8_ARRAY, numberArray);
    this.parsers.set(NUMERIC_ARRAY, numberArray);
    // Dates and timestamps stay text (the value reader formats them as ISO without any
    // local-time conversion); intervals and points stay in PostgreSQL's own text form.
    for (const oid of [DATE, TIMESTAMP, TIMESTAMPTZ, INTERVAL, POINT]) {
      this.parsers.set(oid, identity);
    }
    for (const oid of [DATE_ARRAY, TIMESTAMP_ARRAY, TIMESTAMPTZ_ARRAY]) {
      this.parsers.set(oid, textArray);
    }
  }

  /** The object `pg.Client` expects in its `types` option. */
  readonly types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary'): Parser => {
      const own = this.parsers.get(oid);
      if (own && format !== 'binary') return own;
      return builtinParser(oid, format ?? 'text') as Parser;
    },
  };
}
