import type { DataSource } from '../toolkit/interfaces/data-source';
import {
  AuditActionDataSourceDecorator,
  AuditDataSourceDecorator,
} from './decorators/audit/audit-layers';
import { ActionCollectionDecorator } from './decorators/action/action-collection';
import { BinaryCollectionDecorator } from './decorators/binary/binary-collection';
import { ChartDataSourceDecorator } from './decorators/chart/chart-collection';
import { ComputedCollectionDecorator } from './decorators/computed/computed-collection';
import { DataSourceDecorator } from './decorators/data-source-decorator';
import { EmptyCollectionDecorator } from './decorators/empty/empty-collection';
import { EquivalenceCollectionDecorator } from './decorators/equivalence/equivalence-collection';
import { HookCollectionDecorator } from './decorators/hook/hook-collection';
import { LazyJoinCollectionDecorator } from './decorators/lazy-join/lazy-join-collection';
import { OperatorsEmulateCollectionDecorator } from './decorators/operators-emulate/operators-emulate-collection';
import { OverrideCollectionDecorator } from './decorators/override/override-collection';
import { PublicationDataSourceDecorator } from './decorators/publication/publication-collection';
import { RelationCollectionDecorator } from './decorators/relation/relation-collection';
import { RenameFieldCollectionDecorator } from './decorators/rename-field/rename-field-collection';
import { SchemaCollectionDecorator } from './decorators/schema/schema-collection';
import { SearchCollectionDecorator } from './decorators/search/search-collection';
import { SegmentCollectionDecorator } from './decorators/segment/segment-collection';
import { SortEmulateCollectionDecorator } from './decorators/sort-emulate/sort-emulate-collection';
import { ValidationCollectionDecorator } from './decorators/validation/validation-collection';
import { WriteRelationsCollectionDecorator } from './decorators/write/write-relations-collection';
import { WriteReplaceCollectionDecorator } from './decorators/write/write-replace-collection';

/**
 * The customizer's decorator stack (data-semantics §3.2), built bottom-up over the composite of
 * the added data sources. Requests flow from the top (`dataSource`) down. Why this order:
 *
 * - override (24) sits on the data sources, so overrides get filters rewritten to native fields;
 *   empty (23) short-circuits obviously empty requests before anything costly.
 * - computed → relations → computed (21, 18, 16), each with operator emulation and an
 *   equivalence layer above it: relations may use computed keys, computed fields may use
 *   customizer relations, replaced operators sit before emulated ones; lazy joins (17) read a
 *   ManyToOne's target key from the foreign key instead of joining.
 * - search (13), segments (12) and sort emulation (11) need every field and operator.
 * - charts (10), actions (8) and their internal hooks (9) need every emulated capability; writes
 *   made by actions enter at layer 8, so regular hooks and the layers above skip them.
 * - schema overrides (7), writes (6: custom writing over nested relation writes), hooks (5),
 *   validation (4), binary conversion (3), publication (2) and renaming (1) face the user, and
 *   renaming sits at the very top so customization code always uses original names.
 */
export class DecoratorStack {
  readonly override: DataSourceDecorator<OverrideCollectionDecorator>;
  readonly empty: DataSourceDecorator<EmptyCollectionDecorator>;
  readonly earlyComputed: DataSourceDecorator<ComputedCollectionDecorator>;
  readonly earlyOperators: DataSourceDecorator<OperatorsEmulateCollectionDecorator>;
  readonly relation: DataSourceDecorator<RelationCollectionDecorator>;
  readonly lateComputed: DataSourceDecorator<ComputedCollectionDecorator>;
  readonly lateOperators: DataSourceDecorator<OperatorsEmulateCollectionDecorator>;
  readonly search: DataSourceDecorator<SearchCollectionDecorator>;
  readonly segment: DataSourceDecorator<SegmentCollectionDecorator>;
  readonly sortEmulate: DataSourceDecorator<SortEmulateCollectionDecorator>;
  readonly chart: ChartDataSourceDecorator;
  readonly internalHook: DataSourceDecorator<HookCollectionDecorator>;
  readonly action: DataSourceDecorator<ActionCollectionDecorator>;
  readonly auditWrites: AuditDataSourceDecorator;
  readonly auditActions: AuditActionDataSourceDecorator;
  readonly schema: DataSourceDecorator<SchemaCollectionDecorator>;
  readonly writeRelations: DataSourceDecorator<WriteRelationsCollectionDecorator>;
  readonly writeReplace: DataSourceDecorator<WriteReplaceCollectionDecorator>;
  readonly hook: DataSourceDecorator<HookCollectionDecorator>;
  readonly validation: DataSourceDecorator<ValidationCollectionDecorator>;
  readonly binary: DataSourceDecorator<BinaryCollectionDecorator>;
  readonly publication: PublicationDataSourceDecorator;
  readonly renameField: DataSourceDecorator<RenameFieldCollectionDecorator>;
  /** The top of the stack: what the HTTP layer serves. */
  readonly dataSource: DataSource;

  constructor(base: DataSource) {
    let last: DataSource = base;
    const layer = <L extends DataSource>(build: (child: DataSource) => L): L => {
      const built = build(last);
      last = built;
      return built;
    };
    const equivalence = () =>
      layer((child) => new DataSourceDecorator(child, EquivalenceCollectionDecorator));

    this.override = layer((child) => new DataSourceDecorator(child, OverrideCollectionDecorator));
    this.empty = layer((child) => new DataSourceDecorator(child, EmptyCollectionDecorator));
    equivalence();
    this.earlyComputed = layer(
      (child) => new DataSourceDecorator(child, ComputedCollectionDecorator),
    );
    this.earlyOperators = layer(
      (child) => new DataSourceDecorator(child, OperatorsEmulateCollectionDecorator),
    );
    equivalence();
    this.relation = layer((child) => new DataSourceDecorator(child, RelationCollectionDecorator));
    layer((child) => new DataSourceDecorator(child, LazyJoinCollectionDecorator));
    this.lateComputed = layer(
      (child) => new DataSourceDecorator(child, ComputedCollectionDecorator),
    );
    this.lateOperators = layer(
      (child) => new DataSourceDecorator(child, OperatorsEmulateCollectionDecorator),
    );
    equivalence();
    this.search = layer((child) => new DataSourceDecorator(child, SearchCollectionDecorator));
    this.segment = layer((child) => new DataSourceDecorator(child, SegmentCollectionDecorator));
    this.sortEmulate = layer(
      (child) => new DataSourceDecorator(child, SortEmulateCollectionDecorator),
    );
    this.chart = layer((child) => new ChartDataSourceDecorator(child));
    this.internalHook = layer((child) => new DataSourceDecorator(child, HookCollectionDecorator));
    // Record history (inert without the agent's `auditTrail` option): writes below the actions
    // (so writes of action code are recorded), action runs above them (one unit per run).
    this.auditWrites = layer((child) => new AuditDataSourceDecorator(child));
    this.action = layer((child) => new DataSourceDecorator(child, ActionCollectionDecorator));
    this.auditActions = layer((child) => new AuditActionDataSourceDecorator(child));
    this.schema = layer((child) => new DataSourceDecorator(child, SchemaCollectionDecorator));
    this.writeRelations = layer(
      (child) => new DataSourceDecorator(child, WriteRelationsCollectionDecorator),
    );
    this.writeReplace = layer(
      (child) => new DataSourceDecorator(child, WriteReplaceCollectionDecorator),
    );
    this.hook = layer((child) => new DataSourceDecorator(child, HookCollectionDecorator));
    this.validation = layer(
      (child) => new DataSourceDecorator(child, ValidationCollectionDecorator),
    );
    this.binary = layer((child) => new DataSourceDecorator(child, BinaryCollectionDecorator));
    this.publication = layer((child) => new PublicationDataSourceDecorator(child));
    this.renameField = layer(
      (child) => new DataSourceDecorator(child, RenameFieldCollectionDecorator),
    );
    this.dataSource = last;
  }
}

/**
 * The data source as customization code sees it: the layer under publication and renaming, where
 * fields have their names before `renameField` and hidden fields and collections still exist.
 * `dataSource` itself when it is not the top of a decorator stack.
 */
export function customizationView(dataSource: DataSource): DataSource {
  let current = dataSource;
  while (current instanceof DataSourceDecorator) {
    if (current instanceof PublicationDataSourceDecorator) return current.childDataSource;
    current = current.childDataSource;
  }
  return dataSource;
}
