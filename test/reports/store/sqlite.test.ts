import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteReportStore } from '../../../src/node/reports/sqlite-report-store.js';
import { describeReportStoreContract } from './contract.js';

const folder = mkdtempSync(join(tmpdir(), 'sqlite-report-store-'));
let files = 0;

describeReportStoreContract('SQLite', async () =>
  openSqliteReportStore(join(folder, `reports-${++files}.db`)),
);
