import { describe, expect, it } from 'vitest';
import { TurnGate } from './turns.js';

const nextTurn = () => new Promise<void>((r) => setImmediate(r));

describe('TurnGate', () => {
  it('starts the first request at once and the rest one per loop turn, in arrival order', async () => {
    const gate = new TurnGate();
    const log: string[] = [];
    for (const id of ['a', 'b', 'c', 'd']) gate.enter(() => log.push(id));
    expect(log).toEqual(['a']);
    expect(gate.queued).toBe(3);
    await nextTurn();
    expect(log).toEqual(['a', 'b']);
    await nextTurn();
    expect(log).toEqual(['a', 'b', 'c']);
    // A request arriving while others wait queues behind them.
    gate.enter(() => log.push('e'));
    await nextTurn();
    await nextTurn();
    expect(log).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(gate.queued).toBe(0);
  });

  it('lets timers and I/O callbacks run between queued requests', async () => {
    const gate = new TurnGate();
    const log: string[] = [];
    // Each request takes 2 ms, longer than the timer's 1 ms: the timer is due after the first.
    const busy = () => { const end = performance.now() + 2; while (performance.now() < end); };
    setTimeout(() => log.push('timer'), 1);
    for (let i = 0; i < 3; i++) gate.enter(() => { busy(); log.push(`r${i}`); });
    while (gate.queued > 0) await nextTurn();
    await nextTurn();
    // The timer fires between two requests, not after the queue has drained.
    expect(log.indexOf('timer')).toBeGreaterThan(0);
    expect(log.indexOf('timer')).toBeLessThan(3);
    expect(log.filter((x) => x.startsWith('r'))).toEqual(['r0', 'r1', 'r2']);
  });

  it('starts a lone request at once once the queue has drained', async () => {
    const gate = new TurnGate();
    const log: string[] = [];
    gate.enter(() => log.push('a'));
    await nextTurn();
    await nextTurn();
    gate.enter(() => log.push('b'));
    expect(log).toEqual(['a', 'b']);
  });
});
