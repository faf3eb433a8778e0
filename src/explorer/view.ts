import type { ChartPosition } from './chart-data.js';

/** A view on the page: what it needs done when another replaces it, and the keys it answers itself. */
export interface View {
  close(): void;
  /** A key pressed outside any input: true when the view used it. */
  onKey?(e: KeyboardEvent): boolean;
  /** Where the view is scrolled and zoomed, kept when it is drawn again (the live banner's 刷新). */
  position?(): ChartPosition | null;
}

export const NO_VIEW: View = { close: () => {} };
