// Small charts drawn as plain SVG: a line for a level over time (the queue's depth), stacked bars
// for counts per bucket (tasks finished, tokens used). The SVG stretches to its box, so its
// numbers and times are HTML beside it, not SVG text that would stretch with it. Each chart is an
// image with a summary for screen readers; the figures themselves are in a table (see FiguresTable).
import type { ComponentChildren, JSX } from 'preact';

/** The drawing's own units: the SVG scales them to whatever box CSS gives it. */
const WIDTH = 600;
const HEIGHT = 120;

export interface Bucket {
  /** Where the bucket begins. */
  start: string;
}

/** A rounded-up top for the scale: 1, 2 or 5 times a power of ten, so that the top label reads well. */
export function scaleTop(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 5, 10].find((factor) => factor * power >= max) ?? 10;
  return step * power;
}

function Frame({ title, top, first, last, label, children, legend }: { title: string; top: string; first: string; last: string; label: string; children: ComponentChildren; legend?: ComponentChildren }) {
  return (
    <figure class="chart">
      <figcaption class="chart-title">{title}</figcaption>
      <div class="chart-plot">
        <span class="chart-top" aria-hidden="true">
          {top}
        </span>
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" role="img" aria-label={label} focusable="false">
          <line class="chart-grid" x1="0" y1="0.5" x2={WIDTH} y2="0.5" />
          <line class="chart-grid" x1="0" y1={HEIGHT / 2} x2={WIDTH} y2={HEIGHT / 2} />
          <line class="chart-axis-line" x1="0" y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} />
          {children}
        </svg>
        <div class="chart-times" aria-hidden="true">
          <span>{first}</span>
          <span>{last}</span>
        </div>
      </div>
      {legend}
    </figure>
  );
}

/** A level over the buckets (its value at each bucket's end), as a line over a shaded area. */
export function LineChart({ title, values, top, first, last, label }: { title: string; values: readonly number[]; top: number; first: string; last: string; label: string }) {
  const step = values.length > 1 ? WIDTH / (values.length - 1) : WIDTH;
  const y = (value: number) => HEIGHT - (value / top) * (HEIGHT - 2);
  const points = values.map((value, index) => `${(index * step).toFixed(1)},${y(value).toFixed(1)}`);
  const line = points.length === 1 ? `M0,${y(values[0] ?? 0)} L${WIDTH},${y(values[0] ?? 0)}` : `M${points.join(' L')}`;
  return (
    <Frame title={title} top={String(top)} first={first} last={last} label={label}>
      {values.length > 0 && (
        <>
          <path class="chart-area" d={`${line} L${WIDTH},${HEIGHT} L0,${HEIGHT} Z`} />
          <path class="chart-line" d={line} vector-effect="non-scaling-stroke" />
        </>
      )}
    </Frame>
  );
}

export interface BarPart {
  /** A CSS class that draws it (its colour and, for the second part, its hatching). */
  class: string;
  /** The word the legend gives it. */
  name: string;
  values: readonly number[];
}

let patterns = 0;

/** Counts per bucket as bars, the parts stacked in the order given; the second part is hatched, so that it differs by more than colour. */
export function BarChart({ title, parts, top, first, last, label }: { title: string; parts: readonly BarPart[]; top: number; first: string; last: string; label: string }) {
  const hatch = `chart-hatch-${(patterns += 1)}`;
  const count = Math.max(0, ...parts.map((part) => part.values.length));
  const slot = WIDTH / Math.max(1, count);
  const gap = slot > 6 ? 1 : 0;
  const bars: JSX.Element[] = [];
  for (let index = 0; index < count; index += 1) {
    let base = HEIGHT;
    for (const [order, part] of parts.entries()) {
      const value = part.values[index] ?? 0;
      if (value <= 0) continue;
      const height = Math.max(1, (value / top) * (HEIGHT - 2));
      base -= height;
      // A hatched bar takes its fill from the pattern (a class's fill would win over the attribute).
      bars.push(
        <rect class={order === 1 ? 'chart-hatched' : part.class} x={(index * slot + gap / 2).toFixed(2)} y={base.toFixed(2)} width={(slot - gap).toFixed(2)} height={height.toFixed(2)} fill={order === 1 ? `url(#${hatch})` : undefined} />,
      );
    }
  }
  const legend = (
    <ul class="chart-legend" aria-hidden="true">
      {parts.map((part, order) => (
        <li>
          <span class={`chart-key ${part.class}${order === 1 ? ' chart-key-hatched' : ''}`} /> {part.name}
        </li>
      ))}
    </ul>
  );
  return (
    <Frame title={title} top={String(top)} first={first} last={last} label={label} legend={parts.length > 1 ? legend : undefined}>
      <defs>
        <pattern id={hatch} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect class={parts[1]?.class} width="6" height="6" />
          <line class="chart-hatch-line" x1="0" y1="0" x2="0" y2="6" />
        </pattern>
      </defs>
      {bars}
    </Frame>
  );
}

/**
 * The figures a chart draws, for whoever cannot see it: a table only screen readers are given (in
 * a hidden box: a table's own box would not clip its rows).
 */
export function FiguresTable({ caption, columns, rows }: { caption: string; columns: readonly string[]; rows: ReadonlyArray<readonly (string | number)[]> }) {
  return (
    <div class="visually-hidden">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col">{column}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr>
              {row.map((cell, index) => (index === 0 ? <th scope="row">{cell}</th> : <td>{cell}</td>))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
