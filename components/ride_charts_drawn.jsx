import { useMemo } from "react";
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  useChartWidth,
} from "recharts";

const GRID = "#E3E7EF";
const MUTED = "#40454F";
const TEXT = "#111827";
// Where a one-line label sits against its tick, as recharts' own <Text> places it.
const LABEL_SHIFT = { start: "0.71em", middle: "0.355em", end: "0" };

// Axis labels drawn as plain SVG text: recharts' <Text> measures each label in the page (to wrap it), a
// layout of the whole page per label.
function AxisLabel({ x, y, payload, index, textAnchor, verticalAnchor, tickFormatter, className }) {
  return (
    <text x={x} y={y} dy={LABEL_SHIFT[verticalAnchor]} textAnchor={textAnchor} fontSize={12} fill={MUTED} className={className}>
      {tickFormatter ? tickFormatter(payload.value, index) : payload.value}
    </text>
  );
}
// A flat course stays flat on screen: at least 10 m of headroom either side.
const ELEVATION_DOMAIN = [(min) => Math.floor(min / 10) * 10 - 10, (max) => Math.ceil(max / 10) * 10 + 10];
const CURVE_TICKS = [1, 5, 15, 30, 60, 300, 600, 1200, 3600, 7200, 14400, 28800, 86400];
// On a phone the curve keeps the labels at least half a decade apart, so none overlap at any ride length.
const PHONE_CURVE_TICKS = [1, 15, 60, 300, 1200, 3600, 14400, 86400];
const PHONE_WIDTH = 480;
// Room one category label (a month, a week) needs on the axis.
const LABEL_PX = 36;

// Every axis shows a set number of labels (interval 0 = each tick, n = every (n+1)-th): left to choose,
// recharts measures each label in the page, which forced a layout of the whole page per label (about
// 140 of them on the dashboard, a third of a second on a phone).
// The grid draws horizontal lines only; left alone, it still places (and measures) the vertical ones.
const NO_LINES = () => [];

function CurveAxis({ maxSeconds, ...props }) {
  const width = useChartWidth() ?? PHONE_WIDTH;
  const ticks = (width < PHONE_WIDTH ? PHONE_CURVE_TICKS : CURVE_TICKS).filter((t) => t <= maxSeconds);
  return <XAxis {...props} ticks={ticks} interval={0} />;
}

function CategoryAxis({ count, ...props }) {
  const width = useChartWidth() ?? PHONE_WIDTH;
  return <XAxis {...props} interval={Math.max(0, Math.ceil((count * LABEL_PX) / width) - 1)} />;
}

export function formatDuration(seconds) {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return s % 60 ? `${Math.floor(s / 60)}m${s % 60}s` : `${s / 60}m`;
  const h = Math.floor(s / 3600);
  const m = Math.round((s % 3600) / 60);
  return m ? `${h}h${m}m` : `${h}h`;
}

export function formatClock(seconds) {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = String(Math.floor((s % 3600) / 60)).padStart(2, "0");
  const sec = String(s % 60).padStart(2, "0");
  return `${h}:${m}:${sec}`;
}

function TooltipBox({ children }) {
  return (
    <div
      style={{
        background: "#0B1220",
        color: "#E8ECF4",
        borderRadius: 8,
        padding: "8px 10px",
        fontSize: 12,
        lineHeight: 1.5,
        boxShadow: "0 8px 24px rgba(16,24,40,.2)",
      }}
    >
      {children}
    </div>
  );
}

function CurveTooltip({ active, payload, label, series }) {
  if (!active || !payload || !payload.length) return null;
  return (
    <TooltipBox>
      <div style={{ fontWeight: 700 }}>{formatDuration(label)}</div>
      {payload.map((item) => {
        const info = series.find((s) => s.key === item.dataKey) || {};
        return (
          <div key={item.dataKey} style={{ color: info.color }}>
            {info.name}: {item.value} {info.unit}
          </div>
        );
      })}
    </TooltipBox>
  );
}

// Mean-maximal power curves on a log time axis. series: [{key, name, unit, axis: "left"|"right"}];
// colors: the colour of each series, by its key.
// Chart rows from columns ({seconds: [...], power: [...], ...}), the form the curves travel in.
function curveRows(columns) {
  const keys = Object.keys(columns);
  return columns.seconds.map((_, i) => Object.fromEntries(keys.map((key) => [key, columns[key][i]])));
}

export function PowerCurveChart({ columns, series, colors, height = 300, id }) {
  const data = useMemo(() => curveRows(columns), [columns]);
  const rightAxis = series.some((s) => s.axis === "right");
  const maxSeconds = data.length ? data[data.length - 1].seconds : 1;
  return (
    <div id={id} style={{ width: "100%", height }}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 8, right: rightAxis ? 0 : 12, bottom: 0, left: 0 }}>
          <CartesianGrid stroke={GRID} vertical={false} verticalCoordinatesGenerator={NO_LINES} />
          <CurveAxis
            maxSeconds={maxSeconds}
            dataKey="seconds"
            type="number"
            scale="log"
            domain={[1, Math.max(2, maxSeconds)]}
            tickFormatter={formatDuration}
            tick={AxisLabel}
            allowDataOverflow
          />
          <YAxis yAxisId="left" tick={AxisLabel} width={44} interval={0} />
          {rightAxis && <YAxis yAxisId="right" orientation="right" tick={AxisLabel} width={36} interval={0} />}
          <Tooltip content={<CurveTooltip series={series} />} />
          {/* The series' names in the text colour: their marks carry the series' colours, too light for text. */}
          <Legend wrapperStyle={{ fontSize: 12 }} formatter={(name) => <span style={{ color: TEXT }}>{name}</span>} />
          {series.map((s) => (
            <Line
              key={s.key}
              yAxisId={s.axis || "left"}
              dataKey={s.key}
              name={s.name}
              stroke={colors[s.key]}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
              connectNulls
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

function RideTooltip({ active, payload, name, unit }) {
  if (!active || !payload || !payload.length) return null;
  const point = payload[0].payload;
  return (
    <TooltipBox>
      <div style={{ fontWeight: 700 }}>
        {name}: {payload[0].value} {unit}
      </div>
      <div>Time {formatClock(point.time)}</div>
      <div>Distance {point.distance} km</div>
    </TooltipBox>
  );
}

// Tick marks spread along the ride; with tickEvery, only every tickEvery-th one carries a label.
function spreadTicks(data, key, count) {
  if (data.length < 2) return undefined;
  const step = Math.max(1, Math.floor(data.length / count));
  const ticks = [];
  for (let i = 0; i < data.length; i += step) ticks.push(data[i][key]);
  return ticks;
}

// One ride stream against distance (or time for rides without distance), with its average line.
export function RideGraph({ data, dataKey, name, unit, color, axis = "distance", average, area, tickEvery = 0, id }) {
  const xKey = axis === "distance" ? "distance" : "time";
  const xFormat = axis === "distance" ? (v) => `${Math.round(v * 10) / 10} km` : formatClock;
  const ticks = tickEvery > 0 ? spreadTicks(data, xKey, tickEvery * 5) : undefined;
  const tickFormatter = ticks ? (v, index) => (index % tickEvery === 0 ? xFormat(v) : "") : xFormat;
  const Chart = area ? AreaChart : LineChart;
  return (
    <div id={id} style={{ width: "100%", height: 220 }}>
      <ResponsiveContainer width="100%" height="100%">
        <Chart data={data} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid stroke={GRID} vertical={false} verticalCoordinatesGenerator={NO_LINES} />
          <XAxis
            dataKey={xKey}
            type="number"
            domain={["dataMin", "dataMax"]}
            tick={AxisLabel}
            ticks={ticks}
            interval={0}
            tickFormatter={tickFormatter}
          />
          <YAxis tick={AxisLabel} width={44} domain={area ? ELEVATION_DOMAIN : ["auto", "auto"]} interval={0} />
          <Tooltip content={<RideTooltip name={name} unit={unit} />} />
          {average != null && <ReferenceLine y={average} stroke={MUTED} strokeDasharray="4 4" />}
          {area ? (
            <Area
              dataKey={dataKey}
              stroke={color}
              fill={color}
              fillOpacity={0.25}
              strokeWidth={1.5}
              dot={false}
              isAnimationActive={false}
              connectNulls
            />
          ) : (
            <Line
              dataKey={dataKey}
              stroke={color}
              strokeWidth={1.5}
              dot={false}
              isAnimationActive={false}
              connectNulls
            />
          )}
        </Chart>
      </ResponsiveContainer>
    </div>
  );
}

// Distance or elevation per period (spec 3: bar thickness 30, at most 50).
export function ProgressBars({ data, dataKey, name, unit, color, id }) {
  return (
    <div id={id} style={{ width: "100%", height: 260 }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid stroke={GRID} vertical={false} verticalCoordinatesGenerator={NO_LINES} />
          <CategoryAxis count={data.length} dataKey="label" tick={AxisLabel} />
          <YAxis tick={AxisLabel} width={44} interval={0} />
          <Tooltip
            cursor={{ fill: "rgba(11,18,32,.05)" }}
            formatter={(value) => [`${value} ${unit}`, name]}
            contentStyle={{ borderRadius: 8, fontSize: 12 }}
          />
          <Bar dataKey={dataKey} name={name} fill={color} barSize={30} maxBarSize={50} radius={[4, 4, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
