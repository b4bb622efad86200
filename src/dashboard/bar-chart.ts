import { svg } from './svg.js';

/** One piece of a bar: its value, the class that colours it and what it counts ("3 completed"). */
export interface BarSegment {
  value: number;
  className: string;
  label: string;
}

/** One place on the x axis: its label, and its bars side by side, each a stack of segments. */
export interface BarGroup {
  label: string;
  bars: BarSegment[][];
}

export interface BarChartOptions {
  /** Prefix of the ids the chart's title and description take (aria-labelledby). */
  id: string;
  title: string;
  /** The chart in words, for those who do not see it. */
  description: string;
  xLabel: string;
  yLabel: string;
  groups: BarGroup[];
  /**
   * The drawing's width in its own units (default 640). The SVG scales to its box (styles.css);
   * drawn at about the box's width in CSS pixels, its text keeps its size on a narrow screen.
   */
  width?: number;
}

const HEIGHT = 260;
const MARGIN = { top: 16, right: 28, bottom: 56, left: 56 };
/** About the width of a character of the 14px labels (styles.css), to keep labels apart. */
const CHAR_WIDTH = 8;

/**
 * A bar chart as inline SVG, built with DOM calls (no markup parsing, no inline style: colours
 * are classes of styles.css). A segment of zero draws nothing, so the bars on screen are the
 * non-zero counts. Each bar carries a <title> (the tooltip); the chart as a whole is an image
 * named by its title and description, and the page puts the numbers in a table beside it.
 */
export function barChart(options: BarChartOptions): SVGElement {
  const WIDTH = options.width ?? 640;
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const bottom = MARGIN.top + plotHeight;
  const stackTotals = options.groups.flatMap((g) => g.bars.map((stack) => stack.reduce((sum, s) => sum + s.value, 0)));
  const { top, step } = axisScale(Math.max(0, ...stackTotals));
  const y = (value: number) => bottom - (value / top) * plotHeight;
  const slot = plotWidth / Math.max(1, options.groups.length);
  // Every nth group is labelled, counted back from the last (always labelled), so labels never overlap.
  const widest = Math.max(0, ...options.groups.map((g) => g.label.length));
  const every = Math.max(1, Math.ceil((widest * CHAR_WIDTH + CHAR_WIDTH) / slot));
  const last = options.groups.length - 1;

  const ticks: number[] = [];
  for (let value = 0; value <= top; value += step) ticks.push(value);

  const bars = options.groups.map((group, i) => {
    const barWidth = (slot * 0.8) / Math.max(1, group.bars.length);
    return group.bars.map((stack, j) => {
      const x = MARGIN.left + i * slot + slot * 0.1 + j * barWidth;
      let base = 0;
      return stack.map((segment) => {
        const from = base;
        base += segment.value;
        if (segment.value <= 0) return null;
        return svg(
          'rect',
          {
            class: `bar ${segment.className}`,
            x: round(x),
            y: round(y(base)),
            width: round(Math.max(1, barWidth - 1)),
            height: round(y(from) - y(base)),
          },
          svg('title', {}, `${group.label}: ${segment.label}`),
        );
      });
    });
  });

  const xLabels = options.groups.map((group, i) =>
    (last - i) % every === 0
      ? svg(
          'text',
          { class: 'tick', x: round(MARGIN.left + (i + 0.5) * slot), y: bottom + 20, 'text-anchor': 'middle' },
          group.label,
        )
      : null,
  );

  return svg(
    'svg',
    {
      class: 'chart',
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
      role: 'img',
      'aria-labelledby': `${options.id}-title ${options.id}-desc`,
    },
    svg('title', { id: `${options.id}-title` }, options.title),
    svg('desc', { id: `${options.id}-desc` }, options.description),
    ticks.map((value) => [
      svg('line', {
        class: 'grid',
        x1: MARGIN.left,
        x2: WIDTH - MARGIN.right,
        y1: round(y(value)),
        y2: round(y(value)),
      }),
      svg('text', { class: 'tick', x: MARGIN.left - 8, y: round(y(value)) + 5, 'text-anchor': 'end' }, String(value)),
    ]),
    bars,
    svg('line', { class: 'axis', x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: bottom, y2: bottom }),
    svg('line', { class: 'axis', x1: MARGIN.left, x2: MARGIN.left, y1: MARGIN.top, y2: bottom }),
    xLabels,
    svg(
      'text',
      { class: 'axis-label', x: round(MARGIN.left + plotWidth / 2), y: HEIGHT - 8, 'text-anchor': 'middle' },
      options.xLabel,
    ),
    svg(
      'text',
      {
        class: 'axis-label',
        x: -round(MARGIN.top + plotHeight / 2),
        y: 16,
        transform: 'rotate(-90)',
        'text-anchor': 'middle',
      },
      options.yLabel,
    ),
  );
}

/** A y axis for whole counts: a step of 1, 2 or 5 times a power of ten, at most four steps to the top. */
export function axisScale(highest: number): { top: number; step: number } {
  for (let magnitude = 1; ; magnitude *= 10) {
    for (const multiple of [1, 2, 5]) {
      const step = multiple * magnitude;
      if (step * 4 >= highest) return { step, top: Math.max(step, Math.ceil(highest / step) * step) };
    }
  }
}

const round = (value: number) => Math.round(value * 10) / 10;
