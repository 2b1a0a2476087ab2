import { DataSourceDecorator } from '../customizer/decorators/data-source-decorator';
import { PublicationDataSourceDecorator } from '../customizer/decorators/publication/publication-collection';
import type { DataSource } from '../toolkit/interfaces/data-source';
import {
  AuditActionDataSourceDecorator,
  AuditDataSourceDecorator,
  baseCollection,
} from '../customizer/decorators/audit/audit-layers';
import { isKnex } from './audit-recorder';

/** The two history layers of a customized data source, or `null` when it has none. */
export function findAuditLayers(
  dataSource: DataSource,
): [AuditDataSourceDecorator, AuditActionDataSourceDecorator] | null {
  let writes: AuditDataSourceDecorator | null = null;
  let actions: AuditActionDataSourceDecorator | null = null;
  let current: DataSource = dataSource;
  while (current instanceof DataSourceDecorator) {
    if (current instanceof AuditDataSourceDecorator) writes = current;
    if (current instanceof AuditActionDataSourceDecorator) actions = current;
    current = current.childDataSource;
  }
  return writes && actions ? [writes, actions] : null;
}

/**
 * Hides the history table from the published collections (like `removeCollection`): once
 * created in a SQL data source's database, it is introspected with the business tables at the
 * next start or restart, and would otherwise be served to every user with the browse right,
 * past the per-record checks of the history routes. Returns the names hidden.
 */
export function hideHistoryTable(dataSource: DataSource, table: string): string[] {
  let current: DataSource = dataSource;
  while (current instanceof DataSourceDecorator) {
    if (current instanceof PublicationDataSourceDecorator) {
      const names = current.childDataSource.collections
        .filter(
          (collection) =>
            isKnex(collection.nativeDriver) && baseCollection(collection).name === table,
        )
        .map((collection) => collection.name);
      if (names.length > 0) current.hideCollections(names);
      return names;
    }
    current = current.childDataSource;
  }
  return [];
}
