import { describe, expect, it } from 'vitest';
import { TurnGate } from './turns.js';

const nextTurn = () => new Promise<void>((r) => setImmediate(r));

describe('TurnGate', () => {
  it('with no budget, starts the first request at once and the rest one per loop turn, in arrival order', async () => {
    const gate = new TurnGate(0);
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

  it('lets timers and I/O callbacks run between queued requests once a turn has spent its budget', async () => {
    const gate = new TurnGate(1);
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
    const gate = new TurnGate(0);
    const log: string[] = [];
    gate.enter(() => log.push('a'));
    await nextTurn();
    await nextTurn();
    gate.enter(() => log.push('b'));
    expect(log).toEqual(['a', 'b']);
  });

  it('starts requests at once while the turn lasts less than its budget, then queues them', async () => {
    const gate = new TurnGate(5);
    const log: string[] = [];
    const busy = (ms: number) => { const end = performance.now() + ms; while (performance.now() < end); };
    gate.enter(() => { busy(1); log.push('a'); });
    gate.enter(() => { busy(1); log.push('b'); });
    expect(log).toEqual(['a', 'b']);
    gate.enter(() => { busy(4); log.push('c'); });
    // 6 ms into the turn: the budget of 5 is spent, so d waits for the next turn...
    gate.enter(() => log.push('d'));
    gate.enter(() => log.push('e'));
    expect(log).toEqual(['a', 'b', 'c']);
    expect(gate.queued).toBe(2);
    // ...and so does a finished request's successor while the turn is over budget.
    gate.finished();
    expect(gate.queued).toBe(2);
    await nextTurn();
    // The next turn starts d at once; e follows when d finishes, within the new turn's budget.
    expect(log).toEqual(['a', 'b', 'c', 'd']);
    gate.finished();
    expect(log).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(gate.queued).toBe(0);
  });

  it('starts nothing extra when a request finishes and nothing waits', () => {
    const gate = new TurnGate(5);
    const log: string[] = [];
    gate.enter(() => log.push('a'));
    gate.finished();
    expect(log).toEqual(['a']);
    expect(gate.queued).toBe(0);
  });
});
