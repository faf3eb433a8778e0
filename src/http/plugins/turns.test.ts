import { describe, expect, it } from 'vitest';
import { TurnGate } from './turns.js';

const nextTurn = () => new Promise<void>((r) => setImmediate(r));

/**
 * The gate's clock, advanced by the requests' work: a budget is spent by `busy(ms)`, not by the
 * time this process happens to be given under load.
 */
let clock = 0;
const now = () => clock;
const busy = (ms: number) => {
  clock += ms;
};
const gateOf = (budgetMs: number) => new TurnGate(budgetMs, now);

describe('TurnGate', () => {
  it('with no budget, starts the first request at once and the rest one per loop turn, in arrival order', async () => {
    const gate = gateOf(0);
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
    const gate = gateOf(1);
    const log: string[] = [];
    // Each request takes 2 ms of the 1 ms budget, and the first really spins 2 ms: the timer of 1 ms is due after it.
    setTimeout(() => log.push('timer'), 1);
    const spin = (ms: number) => {
      const end = performance.now() + ms;
      while (performance.now() < end);
    };
    for (let i = 0; i < 3; i++)
      gate.enter(() => {
        busy(2);
        if (i === 0) spin(2);
        log.push(`r${i}`);
      });
    while (gate.queued > 0) await nextTurn();
    await nextTurn();
    // The timer fires between two requests, not after the queue has drained.
    expect(log.indexOf('timer')).toBeGreaterThan(0);
    expect(log.indexOf('timer')).toBeLessThan(3);
    expect(log.filter((x) => x.startsWith('r'))).toEqual(['r0', 'r1', 'r2']);
  });

  it('starts a lone request at once once the queue has drained', async () => {
    const gate = gateOf(0);
    const log: string[] = [];
    gate.enter(() => log.push('a'));
    await nextTurn();
    await nextTurn();
    gate.enter(() => log.push('b'));
    expect(log).toEqual(['a', 'b']);
  });

  it('starts requests at once while the turn lasts less than its budget, then queues them', async () => {
    const gate = gateOf(5);
    const log: string[] = [];
    gate.enter(() => {
      busy(1);
      log.push('a');
    });
    gate.enter(() => {
      busy(1);
      log.push('b');
    });
    expect(log).toEqual(['a', 'b']);
    gate.enter(() => {
      busy(4);
      log.push('c');
    });
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
    const gate = gateOf(5);
    const log: string[] = [];
    gate.enter(() => log.push('a'));
    gate.finished();
    expect(log).toEqual(['a']);
    expect(gate.queued).toBe(0);
  });

  it('writes a lone response at once: nothing waits behind it', async () => {
    const gate = gateOf(50);
    const written: string[] = [];
    gate.enter(() => void gate.hold('lone').then((p) => written.push(p)));
    await Promise.resolve();
    expect(written).toEqual(['lone']);
  });

  it('holds the responses of a turn, each starting the next request, until none waits; then writes them in order', async () => {
    const gate = gateOf(2);
    const seen: number[] = [];
    const written: string[] = [];
    // A request in flight spends the turn's budget, so three queue for the next turn.
    gate.enter(() => busy(3));
    for (const id of ['a', 'b', 'c'])
      gate.enter(() => {
        seen.push(written.length);
        void gate.hold(id).then((p) => written.push(p));
      });
    expect(gate.queued).toBe(3);
    await nextTurn();
    await Promise.resolve();
    // None was written before c started; then all three, in order.
    expect(seen).toEqual([0, 0, 0]);
    expect(written).toEqual(['a', 'b', 'c']);
    expect(gate.queued).toBe(0);
  });

  it("writes the held responses when the turn's budget is spent, and starts the rest in the next turn", async () => {
    const gate = gateOf(2);
    const written: string[] = [];
    gate.enter(() => {
      busy(3);
      void gate.hold('a').then((p) => written.push(p));
    });
    gate.enter(() => void gate.hold('b').then((p) => written.push(p)));
    // a spent the budget: it is written at once, and b waits for the next turn.
    await Promise.resolve();
    expect(written).toEqual(['a']);
    expect(gate.queued).toBe(1);
    await nextTurn();
    await Promise.resolve();
    expect(written).toEqual(['a', 'b']);
  });

  it('writes a held response within the loop turn when the request started after it awaits I/O', async () => {
    const gate = gateOf(2);
    const written: string[] = [];
    gate.enter(() => busy(3));
    gate.enter(() => void gate.hold('a').then((p) => written.push(p)));
    // b awaits I/O (a PostgreSQL query) before its response is ready: here, until the test answers it.
    let answer!: () => void;
    const io = new Promise<void>((r) => {
      answer = r;
    });
    gate.enter(() => void io.then(() => gate.hold('b')).then((p) => written.push(p)));
    await nextTurn();
    await nextTurn();
    expect(written).toEqual(['a']);
    answer();
    await nextTurn();
    expect(written).toEqual(['a', 'b']);
  });
});
