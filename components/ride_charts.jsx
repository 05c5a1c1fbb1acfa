import { useEffect, useRef, useState } from "react";

// recharts and the drawing code are fetched once the page has painted the text around a chart: the
// rider reads the page while the chart code arrives, and drawing runs in a task of its own. Until then
// each chart keeps its box (same id, same height), so nothing moves when it arrives.
// Not React.lazy under Suspense: React shows a resolved Suspense boundary no sooner than 300 ms after its
// fallback, which kept every chart a third of a second behind code that was already in.
let drawn = null;

function useDrawn() {
  const [module, setModule] = useState(drawn);
  useEffect(() => {
    if (module) return undefined;
    let live = true;
    let timer;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        import("./ride_charts_drawn.jsx").then(
          (loaded) => {
            drawn = loaded;
            if (live) setModule(loaded);
          },
          // The box stays; the next page that shows a chart asks again.
          (error) => console.error("The chart code could not be loaded.", error),
        );
      }, 0);
    });
    return () => {
      live = false;
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [module]);
  return module;
}

// A chart is drawn once its box comes within a screen of the window: on a phone the dashboard's charts
// are below the first screen, and drawing them at once (recharts: about 100 ms each on a phone) held up
// the page while the rider read its top.
const NEAR = "100% 0px";

function useNear(box) {
  const [near, setNear] = useState(false);
  useEffect(() => {
    if (near || !box.current) return undefined;
    const watch = new IntersectionObserver((seen) => seen.some((entry) => entry.isIntersecting) && setNear(true), {
      rootMargin: NEAR,
    });
    watch.observe(box.current);
    return () => watch.disconnect();
  }, [near, box]);
  return near;
}

function AfterPaint({ name, height, props }) {
  const module = useDrawn();
  const box = useRef(null);
  const near = useNear(box);
  if (!module || !near) return <div ref={box} id={props.id} style={{ width: "100%", height }} />;
  const Chart = module[name];
  return <Chart {...props} />;
}

export function PowerCurveChart(props) {
  return <AfterPaint name="PowerCurveChart" height={props.height ?? 300} props={props} />;
}

export function RideGraph(props) {
  return <AfterPaint name="RideGraph" height={220} props={props} />;
}

export function ProgressBars(props) {
  return <AfterPaint name="ProgressBars" height={260} props={props} />;
}
