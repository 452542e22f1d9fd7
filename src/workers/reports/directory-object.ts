import { DurableObject } from 'cloudflare:workers';
import { answer } from './answer.js';

/**
 * The reports inboxes' directory on Workers (docs/edge.md, "Reports on Workers"): each inbox's
 * id, its view token and whether it has auto_watch set, in one object's SQLite. It answers what
 * no single inbox's object can: which inbox a dashboard link's token names, which inboxes the
 * auto-watch renewer walks, and every inbox a retention purge goes through. An inbox's reports
 * never pass through it.
 */
export class ReportDirectoryObject extends DurableObject<unknown> {
  #tables = false;

  private get sql(): SqlStorage {
    if (!this.#tables) {
      this.ctx.storage.sql.exec(
        `CREATE TABLE IF NOT EXISTS inboxes (id TEXT PRIMARY KEY, view_token TEXT NOT NULL UNIQUE,
          created_at INTEGER NOT NULL, auto_watch INTEGER NOT NULL) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS inboxes_watching ON inboxes (created_at, id)
          WHERE auto_watch = 1`,
      );
      this.#tables = true;
    }
    return this.ctx.storage.sql;
  }

  /** Lists an inbox; refuses an id or a view token listed already (answer.ts). */
  add(entry: { id: string; viewToken: string; createdAt: number; autoWatch: boolean }) {
    return answer(() => {
      this.sql.exec(
        'INSERT INTO inboxes (id, view_token, created_at, auto_watch) VALUES (?, ?, ?, ?)',
        entry.id,
        entry.viewToken,
        entry.createdAt,
        entry.autoWatch ? 1 : 0,
      );
    });
  }

  remove(id: string): void {
    this.sql.exec('DELETE FROM inboxes WHERE id = ?', id);
  }

  setAutoWatch(id: string, on: boolean): void {
    this.sql.exec('UPDATE inboxes SET auto_watch = ? WHERE id = ?', on ? 1 : 0, id);
  }

  byViewToken(viewToken: string): string | undefined {
    return this.sql
      .exec<{ id: string }>('SELECT id FROM inboxes WHERE view_token = ?', viewToken)
      .toArray()[0]?.id;
  }

  /** The inboxes with auto_watch set, oldest first. */
  watching(): string[] {
    return this.sql
      .exec<{ id: string }>('SELECT id FROM inboxes WHERE auto_watch = 1 ORDER BY created_at, id')
      .toArray()
      .map((row) => row.id);
  }

  all(): string[] {
    return this.sql
      .exec<{ id: string }>('SELECT id FROM inboxes ORDER BY id')
      .toArray()
      .map((row) => row.id);
  }
}
