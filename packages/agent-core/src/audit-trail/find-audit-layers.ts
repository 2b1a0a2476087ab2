import { DataSourceDecorator } from '../customizer/decorators/data-source-decorator';
import type { DataSource } from '../toolkit/interfaces/data-source';
import { AuditActionDataSourceDecorator, AuditDataSourceDecorator } from './audit-layers';

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
