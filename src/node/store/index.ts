/** The stores that need Node: SQLite (the default), Redis, and the one STORE_URL names. */

export { openStore } from './open.js';
export { openRedisStore } from './redis.js';
export { openSqliteStore } from './sqlite.js';
export { guardedSqlite, openSqliteFile, reportExposedFiles } from './sqlite-file.js';
