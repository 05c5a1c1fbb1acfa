import { lazy, Suspense, useEffect, useState } from "react";

// recharts and the drawing code are fetched once the page has painted the text around a chart: the
// rider reads the page while the chart code arrives, and drawing runs in a task of its own. Until then
// each chart keeps its box (same id, same height), so nothing moves when it arrives.
const drawn = () => import("./ride_charts_drawn.jsx");
const later = (name) => lazy(() => drawn().then((module) => ({ default: module[name] })));

const DrawnPowerCurveChart = later("PowerCurveChart");
const DrawnRideGraph = later("RideGraph");
const DrawnProgressBars = later("ProgressBars");

function usePainted() {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted;
}

function AfterPaint({ Chart, height, props }) {
  const box = <div id={props.id} style={{ width: "100%", height }} />;
  if (!usePainted()) return box;
  return (
    <Suspense fallback={box}>
      <Chart {...props} />
    </Suspense>
  );
}

export function PowerCurveChart(props) {
  return <AfterPaint Chart={DrawnPowerCurveChart} height={props.height ?? 300} props={props} />;
}

export function RideGraph(props) {
  return <AfterPaint Chart={DrawnRideGraph} height={220} props={props} />;
}

export function ProgressBars(props) {
  return <AfterPaint Chart={DrawnProgressBars} height={260} props={props} />;
}
