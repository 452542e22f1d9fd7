import {
  createMemoryReportStore,
  type ReportStore,
  type ReportStoreLocation,
} from '../../reports/index.js';
import { openPostgresReportStore } from './postgres-report-store.js';
import { openSqliteReportStore } from './sqlite-report-store.js';

/**
 * Opens the report store REPORTS_URL names (parseReportsUrl); one that cannot be opened throws
 * StoreOpenError with a one-line reason.
 */
export async function openReportStore(
  location: ReportStoreLocation,
  options: {
    /** A SQLite file others may read: reported at start, the chmod to run named. */
    onExposedFile?: (file: string, fix: string) => void;
  } = {},
): Promise<ReportStore> {
  switch (location.kind) {
    case 'memory':
      return createMemoryReportStore();
    case 'sqlite':
      return openSqliteReportStore(location.path, {
        ...(options.onExposedFile ? { onExposedFile: options.onExposedFile } : {}),
      });
    case 'postgres':
      return openPostgresReportStore(location.url);
  }
}
