import { lazy, Suspense } from "react";

// recharts and the drawing code are fetched once a page shows a chart, after the page itself has
// drawn: the page's own script stays small and the chart code runs in a task of its own. Until then
// each chart keeps its box (same id, same height), so nothing moves when it arrives.
const drawn = () => import("./ride_charts_drawn.jsx");
const later = (name) => lazy(() => drawn().then((module) => ({ default: module[name] })));

const DrawnPowerCurveChart = later("PowerCurveChart");
const DrawnRideGraph = later("RideGraph");
const DrawnProgressBars = later("ProgressBars");

function chartBox(id, height) {
  return <div id={id} style={{ width: "100%", height }} />;
}

export function PowerCurveChart(props) {
  return (
    <Suspense fallback={chartBox(props.id, props.height ?? 300)}>
      <DrawnPowerCurveChart {...props} />
    </Suspense>
  );
}

export function RideGraph(props) {
  return (
    <Suspense fallback={chartBox(props.id, 220)}>
      <DrawnRideGraph {...props} />
    </Suspense>
  );
}

export function ProgressBars(props) {
  return (
    <Suspense fallback={chartBox(props.id, 260)}>
      <DrawnProgressBars {...props} />
    </Suspense>
  );
}
