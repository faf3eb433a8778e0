/** A view on the page: what it needs done when another replaces it, and the keys it answers itself. */
export interface View {
  close(): void;
  /** A key pressed outside any input: true when the view used it. */
  onKey?(e: KeyboardEvent): boolean;
}

export const NO_VIEW: View = { close: () => {} };
