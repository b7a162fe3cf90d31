/**
 * Small SVG charts (no chart library: a line chart and a bar chart are all the pages draw). Each is an
 * image with a text summary for screen readers, and carries its point count in data-points so tests and
 * people can tell it grew.
 */
import type { ReactNode } from 'react';

export interface Series {
  name: string;
  points: Array<[number, number]>;
  /** A CSS class giving the stroke colour (chart-a, chart-b, chart-c). */
  tone?: 'a' | 'b' | 'c';
}

interface LineChartProps {
  title: string;
  series: Series[];
  xLabel: string;
  yLabel: string;
  formatX?: (x: number) => string;
  formatY?: (y: number) => string;
  height?: number;
  empty?: ReactNode;
}

const W = 600;
const PAD = { left: 52, right: 12, top: 12, bottom: 30 };

const plain = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toPrecision(3));

function bounds(values: number[]): [number, number] {
  let min = Math.min(...values);
  let max = Math.max(...values);
  if (min === max) {
    min -= 1;
    max += 1;
  }
  return [min, max];
}

export function LineChart({ title, series, xLabel, yLabel, formatX = plain, formatY = plain, height = 220, empty }: LineChartProps) {
  const all = series.flatMap((s) => s.points);
  const count = all.length;
  if (count === 0) {
    return (
      <figure className="chart" data-points={0}>
        <figcaption>{title}</figcaption>
        <p className="muted">{empty ?? 'No data yet.'}</p>
      </figure>
    );
  }
  const [x0, x1] = bounds(all.map((p) => p[0]));
  const [y0, y1] = bounds(all.map((p) => p[1]));
  const innerW = W - PAD.left - PAD.right;
  const innerH = height - PAD.top - PAD.bottom;
  const sx = (x: number) => PAD.left + ((x - x0) / (x1 - x0)) * innerW;
  const sy = (y: number) => PAD.top + (1 - (y - y0) / (y1 - y0)) * innerH;
  const last = series.map((s) => (s.points.length ? `${s.name} ${formatY(s.points[s.points.length - 1][1])}` : `${s.name} no data`));
  const summary = `${title}: ${count} points; latest ${last.join(', ')}`;
  return (
    <figure className="chart" data-points={count}>
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${W} ${height}`} role="img" aria-label={summary}>
        <line className="axis" x1={PAD.left} y1={PAD.top + innerH} x2={W - PAD.right} y2={PAD.top + innerH} />
        <line className="axis" x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={PAD.top + innerH} />
        <text className="tick" x={PAD.left - 6} y={PAD.top + 10} textAnchor="end">
          {formatY(y1)}
        </text>
        <text className="tick" x={PAD.left - 6} y={PAD.top + innerH} textAnchor="end">
          {formatY(y0)}
        </text>
        <text className="tick" x={PAD.left} y={height - 8}>
          {formatX(x0)}
        </text>
        <text className="tick" x={W - PAD.right} y={height - 8} textAnchor="end">
          {formatX(x1)}
        </text>
        <text className="tick" x={(W + PAD.left) / 2} y={height - 8} textAnchor="middle">
          {xLabel}
        </text>
        {series.map((s) =>
          s.points.length === 1 ? (
            <circle key={s.name} className={`series chart-${s.tone ?? 'a'}`} cx={sx(s.points[0][0])} cy={sy(s.points[0][1])} r={4} />
          ) : (
            <polyline key={s.name} className={`series chart-${s.tone ?? 'a'}`} points={s.points.map(([x, y]) => `${sx(x)},${sy(y)}`).join(' ')} />
          ),
        )}
      </svg>
      <div className="legend">
        <span className="muted">{yLabel}</span>
        {series.map((s) => (
          <span key={s.name} className={`key chart-${s.tone ?? 'a'}`}>
            {s.name}
          </span>
        ))}
      </div>
    </figure>
  );
}

export interface Bar {
  label: string;
  value: number;
  /** Shown instead of the value. */
  text?: string;
}

/** Horizontal bars: readable at phone width, labels never overlap. */
export function BarChart({ title, bars, max }: { title: string; bars: Bar[]; max?: number }) {
  const top = max ?? Math.max(1e-9, ...bars.map((b) => b.value));
  return (
    <figure className="chart" data-points={bars.length}>
      <figcaption>{title}</figcaption>
      {bars.length === 0 ? (
        <p className="muted">No data yet.</p>
      ) : (
        <ul className="bars">
          {bars.map((bar) => (
            <li key={bar.label}>
              <span className="bar-label">{bar.label}</span>
              <span className="bar-track" aria-hidden="true">
                <span className="bar-fill" style={{ width: `${Math.max(0, Math.min(100, (bar.value / top) * 100))}%` }} />
              </span>
              <span className="bar-value">{bar.text ?? plain(bar.value)}</span>
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}
