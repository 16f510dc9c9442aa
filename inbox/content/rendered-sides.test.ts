// How the page before and after fit the review's column: side by side at desktop width, scaled to fit, from
// SIDE_BY_SIDE_FROM; below it one at a time at phone width, never wider than the column.
import { describe, expect, it } from 'vitest';
import { SIDE_BY_SIDE_FROM, sidesLayout } from './RenderedSides.tsx';

describe('the sides layout', () => {
  it('puts both side by side on a wide column, each drawn at 1280 and scaled into half of it', () => {
    const wide = sidesLayout(1108);
    expect(wide.sideBySide).toBe(true);
    expect(wide.frame.width).toBe(1280);
    expect(2 * wide.frame.width * wide.scale + 16).toBeLessThanOrEqual(1108);
    expect(sidesLayout(SIDE_BY_SIDE_FROM).sideBySide).toBe(true);
  });

  it('shows one at a time on a phone, drawn at 390 and shrunk only to fit', () => {
    const phone = sidesLayout(332);
    expect(phone).toMatchObject({ sideBySide: false, frame: { width: 390 } });
    expect(phone.frame.width * phone.scale).toBeCloseTo(332);
    expect(sidesLayout(SIDE_BY_SIDE_FROM - 1).scale).toBe(1);
  });
});
