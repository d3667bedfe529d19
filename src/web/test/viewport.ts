import { afterEach } from 'vitest';

type HappyWindow = Window & { happyDOM: { setViewport: (size: { width: number; height: number }) => void } };

/**
 * Sets the window's size for `matchMedia` (a phone is 375 × 812); every test after it starts at
 * happy-dom's own 1024 × 768 again.
 */
export function atViewport(width: number, height = 812): void {
  (window as unknown as HappyWindow).happyDOM.setViewport({ width, height });
}

afterEach(() => atViewport(1024, 768));
