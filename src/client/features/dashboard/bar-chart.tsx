/** A small hand-drawn SVG bar chart. It is an image with a summary for screen readers; the table beside it has the figures. */
export interface BarDatum {
  label: string;
  value: number;
}

const WIDTH = 600;
const HEIGHT = 180;
const PAD = { top: 12, right: 8, bottom: 24, left: 8 };

export function BarChart({ data, summary, format }: { data: BarDatum[]; summary: string; format: (n: number) => string }) {
  const peak = Math.max(0, ...data.map((d) => d.value));
  const max = Math.max(1, peak);
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const slot = data.length ? innerW / data.length : innerW;
  const bar = Math.max(1, slot * 0.72);
  // Label a handful of ticks only, so long ranges stay legible.
  const every = Math.max(1, Math.ceil(data.length / 6));
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={summary} className="h-auto w-full" preserveAspectRatio="none">
      <line x1={PAD.left} x2={WIDTH - PAD.right} y1={HEIGHT - PAD.bottom} y2={HEIGHT - PAD.bottom} className="stroke-ink-600" />
      {data.map((d, i) => {
        const h = (d.value / max) * innerH;
        const x = PAD.left + i * slot + (slot - bar) / 2;
        return (
          <g key={d.label}>
            <rect x={x} y={HEIGHT - PAD.bottom - h} width={bar} height={h} rx={Math.min(2, bar / 2)} className="fill-blood-500">
              <title>{`${d.label}: ${format(d.value)}`}</title>
            </rect>
            {i % every === 0 ? (
              <text x={x + bar / 2} y={HEIGHT - 6} textAnchor="middle" className="fill-bone-300 text-[10px]">
                {d.label}
              </text>
            ) : null}
          </g>
        );
      })}
      <text x={WIDTH - PAD.right} y={PAD.top} textAnchor="end" className="fill-bone-300 text-[10px]">
        {`peak ${format(peak)}`}
      </text>
    </svg>
  );
}
