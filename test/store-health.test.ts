/**
 * What the log says of a store outage (store/health.ts), on a clock the test moves: one line when
 * it starts, one when it ends, and the end only when a query begun after the last failure
 * succeeds. A query sent before PostgreSQL began to stop succeeded 5 ms into a 30 s stop: the log
 * said "store available again after 0.0 s", then nothing when the outage really ended.
 */
import { describe, expect, it } from 'vitest';
import { StoreHealth, StoreUnavailable } from '../src/store/health.js';

function clocked() {
  let now = 1_000_000;
  const lines: string[] = [];
  const health = new StoreHealth(() => now);
  health.log = (level, msg) => lines.push(`${level} ${msg}`);
  return { health, lines, at: (ms: number) => (now = 1_000_000 + ms) };
}

describe('StoreHealth', () => {
  it('ends an outage only on a success of a query begun after the last failure', () => {
    const { health, lines, at } = clocked();
    at(0);
    const running = health.mark; // a query already running when the store begins to stop
    expect(health.failed('57P03 the database system is shutting down', null)).toBeInstanceOf(StoreUnavailable);
    at(5);
    health.ok(running);
    expect(health.unavailable).toBe(true);
    // Queries begun during the outage fail.
    for (let t = 100; t < 30_000; t += 1000) {
      at(t);
      health.failed('ECONNREFUSED', null);
    }
    // One begun before the last failure, answered after it: still not the end.
    const early = health.mark;
    at(30_050);
    health.failed('ECONNREFUSED', null);
    health.ok(early);
    expect(health.unavailable).toBe(true);
    at(30_200);
    const after = health.mark;
    at(30_210);
    health.ok(after);
    expect(health.unavailable).toBe(false);
    expect(lines).toEqual([
      'warn store unavailable: 57P03 the database system is shutting down; answering 503 not_ready until it answers again',
      'info store available again after 30.2 s; 32 queries failed meanwhile',
    ]);
    expect(health.answeredWithin(1000)).toBe(true);
    at(31_300);
    expect(health.answeredWithin(1000)).toBe(false);
  });

  it('says an outage that starts within a second of the last one at its first failure after that second, and its end', () => {
    const { health, lines, at } = clocked();
    at(0);
    health.failed('ECONNRESET', null);
    at(200);
    health.ok(health.mark);
    // Down again 300 ms later: too soon for another line...
    at(500);
    health.failed('ECONNREFUSED', null);
    expect(lines).toHaveLength(2);
    // ...said by the first failure a second after the last line.
    at(1200);
    health.failed('ECONNREFUSED', null);
    at(20_500);
    health.ok(health.mark);
    expect(lines).toEqual([
      'warn store unavailable: ECONNRESET; answering 503 not_ready until it answers again',
      'info store available again after 0.2 s; 1 queries failed meanwhile',
      'warn store unavailable: ECONNREFUSED; answering 503 not_ready until it answers again',
      'info store available again after 20.0 s; 2 queries failed meanwhile',
    ]);
  });

  it('counts an outage too short to be said in the next line', () => {
    const { health, lines, at } = clocked();
    at(0);
    health.failed('a', null);
    at(100);
    health.ok(health.mark);
    at(300);
    health.failed('b', null);
    at(400);
    health.ok(health.mark);
    expect(lines).toHaveLength(2);
    at(5000);
    health.failed('c', null);
    at(6000);
    health.ok(health.mark);
    expect(lines.slice(2)).toEqual([
      'warn store unavailable: c; answering 503 not_ready until it answers again',
      'info store available again after 1.0 s; 2 queries failed meanwhile',
    ]);
  });
});
