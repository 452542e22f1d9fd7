import { DurableObject } from 'cloudflare:workers';

/**
 * One key of the Store contract (src/store/store.ts) on Workers: a value, a counter, a set or a due
 * queue, kept in its own Durable Object's SQLite storage (docs/edge.md). A Durable Object runs one
 * call at a time and each method below does its reading and writing without awaiting anything in
 * between, so every operation is atomic, `incrementWithin`, `addMemberWithin` and `claimDue`
 * included; and the object is the one place its key lives, so a token read right after its POST
 * finds it from anywhere. An alarm at the earliest expiry deletes what has expired, and the whole
 * object once nothing is left (a queue's ids never expire: they stay until removed).
 */

export class StoreObject extends DurableObject<unknown> {
  /** Whether the tables exist: created on first use, and again after `deleteAll()` dropped them. */
  private tables = false;

  private get sql(): SqlStorage {
    const sql = this.ctx.storage.sql;
    if (!this.tables) {
      // `slot` holds the key's value or counter (one row at most), `member` its set's members.
      sql.exec(
        'CREATE TABLE IF NOT EXISTS slot (id INTEGER PRIMARY KEY CHECK (id = 1), value TEXT NOT NULL, expires_at INTEGER NOT NULL)',
      );
      sql.exec(
        'CREATE TABLE IF NOT EXISTS member (name TEXT PRIMARY KEY, expires_at INTEGER NOT NULL)',
      );
      sql.exec('CREATE TABLE IF NOT EXISTS due (id TEXT PRIMARY KEY, due_at INTEGER NOT NULL)');
      this.tables = true;
    }
    return sql;
  }

  get(): string | undefined {
    return this.slot(Date.now())?.value;
  }

  async set(value: string, ttlMs: number): Promise<void> {
    const expiresAt = Date.now() + ttlMs;
    this.sql.exec(
      'INSERT OR REPLACE INTO slot (id, value, expires_at) VALUES (1, ?, ?)',
      value,
      expiresAt,
    );
    await this.expireBy(expiresAt);
  }

  delete(): void {
    this.sql.exec('DELETE FROM slot');
  }

  count(): number {
    return Number(this.slot(Date.now())?.value ?? 0);
  }

  async increment(by: number, ttlMs: number): Promise<number> {
    const value = this.add(by, ttlMs, Date.now());
    await this.expireBy(this.slot(Date.now())!.expires_at);
    return value;
  }

  async incrementWithin(limit: number, ttlMs: number): Promise<number | undefined> {
    const now = Date.now();
    if (this.count() >= limit) return undefined;
    const value = this.add(1, ttlMs, now);
    await this.expireBy(this.slot(now)!.expires_at);
    return value;
  }

  async addMembers(members: readonly string[], ttlMs: number): Promise<void> {
    if (members.length === 0) return;
    const expiresAt = Date.now() + ttlMs;
    for (const name of members) {
      // A member added again lives until the later of its two expiries.
      this.sql.exec(
        'INSERT INTO member (name, expires_at) VALUES (?, ?) ' +
          'ON CONFLICT (name) DO UPDATE SET expires_at = max(expires_at, excluded.expires_at)',
        name,
        expiresAt,
      );
    }
    await this.expireBy(expiresAt);
  }

  members(): string[] {
    return this.sql
      .exec<{ name: string }>('SELECT name FROM member WHERE expires_at > ?', Date.now())
      .toArray()
      .map((row) => row.name);
  }

  async addMemberWithin(member: string, limit: number, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    const live = this.sql
      .exec<{ n: number; mine: number }>(
        'SELECT count(*) AS n, count(CASE WHEN name = ? THEN 1 END) AS mine FROM member WHERE expires_at > ?',
        member,
        now,
      )
      .one();
    if (live.mine === 0 && live.n >= limit) return false;
    await this.addMembers([member], ttlMs);
    return true;
  }

  removeMembers(members: readonly string[]): void {
    for (const name of members) this.sql.exec('DELETE FROM member WHERE name = ?', name);
  }

  putDue(id: string, dueAt: number): void {
    this.sql.exec('INSERT OR REPLACE INTO due (id, due_at) VALUES (?, ?)', id, dueAt);
  }

  removeDue(id: string): void {
    this.sql.exec('DELETE FROM due WHERE id = ?', id);
  }

  countDue(): number {
    return this.sql.exec<{ n: number }>('SELECT count(*) AS n FROM due').one().n;
  }

  earliestDue(): number | undefined {
    return (
      this.sql.exec<{ at: number | null }>('SELECT min(due_at) AS at FROM due').one().at ??
      undefined
    );
  }

  claimDue(now: number, limit: number, leaseMs: number): { id: string; dueAt: number }[] {
    const claimed = this.sql
      .exec<{ id: string; dueAt: number }>(
        'SELECT id, due_at AS dueAt FROM due WHERE due_at <= ? ORDER BY due_at LIMIT ?',
        now,
        Math.max(0, limit),
      )
      .toArray();
    for (const { id } of claimed) {
      this.sql.exec('UPDATE due SET due_at = ? WHERE id = ?', now + leaseMs, id);
    }
    return claimed;
  }

  /** Deletes what has expired; the next alarm is at the earliest expiry left, if any. */
  override async alarm(): Promise<void> {
    const now = Date.now();
    this.sql.exec('DELETE FROM slot WHERE expires_at <= ?', now);
    this.sql.exec('DELETE FROM member WHERE expires_at <= ?', now);
    const next = this.sql
      .exec<{
        at: number | null;
      }>(
        'SELECT min(at) AS at FROM (SELECT min(expires_at) AS at FROM slot UNION ALL SELECT min(expires_at) FROM member)',
      )
      .one().at;
    if (next !== null) await this.ctx.storage.setAlarm(next);
    else if (this.countDue() === 0) {
      await this.ctx.storage.deleteAll();
      this.tables = false;
    }
  }

  /** The live value or counter, if any. */
  private slot(now: number): { value: string; expires_at: number } | undefined {
    return this.sql
      .exec<{
        value: string;
        expires_at: number;
      }>('SELECT value, expires_at FROM slot WHERE id = 1 AND expires_at > ?', now)
      .toArray()[0];
  }

  /** Adds to the counter; a counter created here (or after its expiry) gets the TTL given. */
  private add(by: number, ttlMs: number, now: number): number {
    const current = this.slot(now);
    const value = Number(current?.value ?? 0) + by;
    this.sql.exec(
      'INSERT OR REPLACE INTO slot (id, value, expires_at) VALUES (1, ?, ?)',
      String(value),
      current?.expires_at ?? now + ttlMs,
    );
    return value;
  }

  /** The alarm goes off no later than `at`. */
  private async expireBy(at: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
  }
}
