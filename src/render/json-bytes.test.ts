import { describe, expect, it } from 'vitest';
import { Renderer, type JsonBytes } from './json-bytes.js';

const SLAB = 256 * 1024;

/** A pattern of 'a'..'z' whose bytes differ from their neighbours' (period 26), long enough for every body here. */
const PATTERN = Buffer.from(Array.from({ length: 800_000 }, (_, i) => 97 + ((i * 7) % 26)));

/** `n` bytes of the pattern, from a phase of it that tells body `seed` apart from its neighbours. */
const pattern = (n: number, seed: number): Buffer => PATTERN.subarray(seed * 3, seed * 3 + n);

/** Writes `body` to `w` as a page is written: constants of a few sizes in turn, the rest as single bytes. */
function write(w: JsonBytes, body: Buffer): void {
  const steps = [1, 40, 3, 2000];
  let at = 0;
  for (let i = 0; at + steps[i % 4] <= body.length; i++) {
    w.bytes(body.subarray(at, at + steps[i % 4]));
    at += steps[i % 4];
  }
  while (at < body.length) w.byte(body[at++]);
}

/** One body of `n` bytes rendered by `r`, as the app renders one: start, write, take. */
function body(r: Renderer, n: number, seed: number): { taken: Buffer; want: Buffer } {
  const want = pattern(n, seed);
  const w = r.start();
  write(w, want);
  return { taken: w.take(), want };
}

/**
 * A renderer whose slab has grown to `size` bytes (even: a grown slab is twice a body's bytes so
 * far and the write that outgrew the slab) as the app's grows: a first body, then one of
 * size / 2 bytes that does not fit after it; returns the bodies taken.
 */
function grownTo(size: number): { r: Renderer; bodies: { taken: Buffer; want: Buffer }[] } {
  const r = new Renderer();
  const first = body(r, 32_768, 1);
  const want = pattern(size / 2, 2);
  const w = r.start();
  w.bytes(want.subarray(0, 1000));
  w.bytes(want.subarray(1000));
  const grown = { taken: w.take(), want };
  expect(r.slab.length).toBe(size);
  return { r, bodies: [first, grown] };
}

describe('the renderer at the end of its slab', () => {
  // Grown slabs of each size modulo 8 (the 478,558 bytes of the report: 6 modulo 8).
  const sizes = [478_552, 478_554, 478_556, 478_558, 600_002];

  it('keeps every body and renders the next ones whatever length a body ends the slab at (every end from 24 bytes before it to 8 past)', () => {
    for (const size of sizes) {
      for (let end = size - 24; end <= size + 8; end++) {
        const { r, bodies } = grownTo(size);
        const at = r.used;
        expect(at % 8, 'bodies start 8-aligned').toBe(0);
        bodies.push(body(r, end - at, 3));
        // The bodies after it: a few bytes, one more than the slab holds, then small ones again.
        for (const [n, seed] of [
          [5, 4],
          [8, 5],
          [3000, 6],
          [size + 1, 7],
          [1, 8],
          [9, 9],
        ])
          bodies.push(body(r, n, seed));
        expect(r.used, `slab ${size}, a body ending at ${end}`).toBeLessThanOrEqual(r.slab.length);
        // Every body taken still reads as written (none was written over by a later one).
        for (const [i, b] of bodies.entries()) expect(b.taken.equals(b.want), `slab ${size}, end ${end}, body ${i}`).toBe(true);
      }
    }
  });

  it('renders the next body on a fresh slab after a failed one, whatever the failure left', () => {
    const { r, bodies } = grownTo(478_558);
    expect(() =>
      r.render((w) => {
        w.bytes(pattern(100, 3));
        throw new Error('a writer failed half-way');
      }),
    ).toThrow('a writer failed half-way');
    const next = pattern(300, 4);
    expect(r.render((w) => write(w, next)).equals(next)).toBe(true);
    // A state no arithmetic should leave (the next body's start past the slab's end, as the
    // rounding up to 8 once left it): the next body is rendered on a fresh slab all the same.
    r.used = r.slab.length + 2;
    const after = pattern(700, 5);
    expect(r.render((w) => write(w, after)).equals(after)).toBe(true);
    expect(r.used).toBeLessThanOrEqual(r.slab.length);
    for (const b of bodies) expect(b.taken.equals(b.want)).toBe(true);
  });

  it('probes itself: null when a small body renders and reads back', () => {
    const r = new Renderer();
    expect(r.probe()).toBeNull();
    r.used = r.slab.length;
    expect(r.probe()).toBeNull();
    expect(r.slab.length).toBe(SLAB);
  });
});
