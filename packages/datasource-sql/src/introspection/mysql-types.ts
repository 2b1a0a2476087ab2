import type { IntrospectedType } from './introspection';

/** Reads the labels of `enum('a','b''c')`. */
export function parseMysqlEnumLabels(columnType: string): string[] {
  const labels: string[] = [];
  const pattern = /'((?:[^'\\]|''|\\.)*)'/g;
  for (const match of columnType.matchAll(pattern)) {
    labels.push((match[1] ?? '').replace(/''/g, "'").replace(/\\(.)/g, '$1'));
  }
  return labels;
}

/**
 * Maps a MySQL/MariaDB column (`DATA_TYPE`, `COLUMN_TYPE`) to an introspected type, or
 * `undefined` when unsupported (geometry, set…). `tinyint(1)` and `bit(1)` are booleans.
 */
export function mapMysqlType(dataType: string, columnType: string): IntrospectedType | undefined {
  const type = dataType.toLowerCase();
  const full = columnType.toLowerCase();
  if ((type === 'tinyint' && full.startsWith('tinyint(1)')) || full === 'bit(1)') {
    return { kind: 'scalar', scalar: 'boolean' };
  }
  switch (type) {
    case 'tinyint':
    case 'smallint':
    case 'mediumint':
    case 'int':
    case 'integer':
    case 'year':
      return { kind: 'scalar', scalar: 'integer' };
    case 'bigint':
      return { kind: 'scalar', scalar: 'bigint' };
    case 'decimal':
    case 'numeric':
      return { kind: 'scalar', scalar: 'decimal' };
    case 'float':
    case 'double':
    case 'real':
      return { kind: 'scalar', scalar: 'float' };
    case 'char':
    case 'varchar':
    case 'tinytext':
    case 'text':
    case 'mediumtext':
    case 'longtext':
      return { kind: 'scalar', scalar: 'string' };
    case 'binary':
    case 'varbinary':
    case 'tinyblob':
    case 'blob':
    case 'mediumblob':
    case 'longblob':
      return { kind: 'scalar', scalar: 'binary' };
    case 'date':
      return { kind: 'scalar', scalar: 'date' };
    case 'datetime':
    case 'timestamp':
      return { kind: 'scalar', scalar: 'timestamp', withTimeZone: type === 'timestamp' };
    case 'time':
      return { kind: 'scalar', scalar: 'time' };
    case 'json':
      return { kind: 'scalar', scalar: 'json' };
    case 'uuid':
      return { kind: 'scalar', scalar: 'uuid' };
    case 'inet4':
    case 'inet6':
      return { kind: 'scalar', scalar: 'network' };
    case 'enum':
      return { kind: 'enum', values: parseMysqlEnumLabels(columnType) };
    default:
      return undefined;
  }
}
