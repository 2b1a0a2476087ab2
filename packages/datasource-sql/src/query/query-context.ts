import {
  MissingFieldError,
  UnexpectedFieldTypeError,
  type ToOneRelationSchema,
} from '@canopy/agent-core/toolkit';
import type { Knex } from 'knex';
import type { SqlDialect } from '../connection/sql-connection-params';
import type { IntrospectedColumn } from '../introspection/introspection';
import type { TableModel } from '../schema/table-model';
import type { PreparedStatements } from './prepared-statements';
import type { StatementCache } from './statement-cache';
import type { CompiledStatement } from './statement-runner';

/** A column reached from the root collection, possibly through to-one relations. */
export interface ResolvedColumn {
  /** `alias.column`, ready for knex identifiers. */
  ref: string;
  column: IntrospectedColumn;
  model: TableModel;
}

interface Join {
  alias: string;
  model: TableModel;
  /** The join condition's two sides. */
  left: string;
  right: string;
}

/** Everything a translator needs: knex, the dialect, the models and the table naming. */
export interface SqlEnvironment {
  knex: Knex;
  dialect: SqlDialect;
  /** PostgreSQL schema to qualify tables with (absent elsewhere). */
  schema?: string;
  models: Map<string, TableModel>;
  /** The server is MariaDB 10.5 or later, whose INSERT accepts RETURNING (MySQL's does not). */
  mariadbReturning?: boolean;
  /** Compiled SELECTs by query shape (lists and aggregations); absent, every query is built. */
  statements?: StatementCache<CompiledStatement>;
  /** PostgreSQL: cached statements run as named prepared statements (absent: unnamed). */
  prepared?: PreparedStatements;
}

/** `schema.table` on PostgreSQL, `table` elsewhere. */
export function tableName(environment: SqlEnvironment, table: string): string {
  return environment.schema ? `${environment.schema}.${table}` : table;
}

/**
 * Resolves field paths (`customer:address:city`) of one query to qualified columns, and records
 * the LEFT JOIN each to-one relation on the way needs, once per relation path.
 */
export class QueryContext {
  private readonly joins = new Map<string, Join>();

  constructor(
    readonly environment: SqlEnvironment,
    readonly root: TableModel,
    /** Alias of the root table (its name unless the query says otherwise). */
    readonly rootAlias: string = root.name,
  ) {}

  /** The relation schema and joined alias for a relation path, joining it when needed. */
  relation(path: string): { alias: string; model: TableModel; targetColumn: string } {
    const parts = path.split(':');
    let model = this.root;
    let alias = this.rootAlias;
    let prefix = '';
    let targetColumn = '';
    for (const part of parts) {
      const field = model.fields[part];
      if (!field) throw new MissingFieldError(model.name, part, Object.keys(model.fields));
      if (field.type !== 'ManyToOne' && field.type !== 'OneToOne') {
        throw new UnexpectedFieldTypeError(model.name, part, field.type, ['ManyToOne', 'OneToOne']);
      }
      prefix = prefix ? `${prefix}:${part}` : part;
      const join = this.join(prefix, alias, field);
      model = join.model;
      alias = join.alias;
      targetColumn = field.type === 'ManyToOne' ? field.foreignKeyTarget : field.originKey;
    }
    return { alias, model, targetColumn };
  }

  /** Resolves a column path to its qualified reference. */
  column(path: string): ResolvedColumn {
    const index = path.lastIndexOf(':');
    const relationPath = index === -1 ? '' : path.slice(0, index);
    const name = index === -1 ? path : path.slice(index + 1);
    const { alias, model } = relationPath
      ? this.relation(relationPath)
      : { alias: this.rootAlias, model: this.root };
    const column = model.columns.get(name);
    if (!column) {
      const field = model.fields[name];
      if (field) throw new UnexpectedFieldTypeError(model.name, name, field.type, ['Column']);
      throw new MissingFieldError(model.name, name, Object.keys(model.fields));
    }
    return { ref: `${alias}.${name}`, column, model };
  }

  /**
   * A path into a JSON column (`address:country`, `customer:address:city`): the column, joined
   * when it belongs to a related table, and the keys after it; `null` for any other path.
   */
  jsonKey(path: string): (ResolvedColumn & { keys: string[] }) | null {
    const parts = path.split(':');
    let model: TableModel | undefined = this.root;
    for (let index = 0; model && index < parts.length - 1; index += 1) {
      const name = parts[index] as string;
      const column = model.columns.get(name);
      if (column) {
        if (column.type.kind !== 'scalar' || column.type.scalar !== 'json') return null;
        return {
          ...this.column(parts.slice(0, index + 1).join(':')),
          keys: parts.slice(index + 1),
        };
      }
      const field = model.fields[name];
      if (field?.type !== 'ManyToOne' && field?.type !== 'OneToOne') return null;
      model = this.environment.models.get(field.foreignCollection);
    }
    return null;
  }

  /** Whether a relation had to be joined. */
  get hasJoins(): boolean {
    return this.joins.size > 0;
  }

  /** Adds the recorded joins to a query, in the order they were first needed. */
  applyJoins(query: Knex.QueryBuilder): Knex.QueryBuilder {
    for (const join of this.joins.values()) {
      query.leftJoin(
        { [join.alias]: tableName(this.environment, join.model.name) },
        join.left,
        join.right,
      );
    }
    return query;
  }

  private join(path: string, parentAlias: string, field: ToOneRelationSchema): Join {
    const known = this.joins.get(path);
    if (known) return known;
    const model = this.environment.models.get(field.foreignCollection);
    if (!model) {
      throw new MissingFieldError(this.root.name, path, [...this.environment.models.keys()]);
    }
    const alias = `__j${this.joins.size + 1}`;
    const join: Join =
      field.type === 'ManyToOne'
        ? {
            alias,
            model,
            left: `${alias}.${field.foreignKeyTarget}`,
            right: `${parentAlias}.${field.foreignKey}`,
          }
        : {
            alias,
            model,
            left: `${alias}.${field.originKey}`,
            right: `${parentAlias}.${field.originKeyTarget}`,
          };
    this.joins.set(path, join);
    return join;
  }
}
