import { useState } from "react";
import ReactCountdown from "react-countdown";

// What it shows, from the time left react-countdown hands each render (`formatted` is zero-padded).
const RENDERERS = {
  dhms: ({ days, formatted }) => `${days}d ${formatted.hours}h ${formatted.minutes}m ${formatted.seconds}s`,
  clock: ({ total, formatted }) => `${Math.floor(total / 60000)}:${formatted.seconds}`,
  seconds: ({ total }) => `${Math.ceil(total / 1000)}`,
  hidden: () => null,
};

// The site's one countdown, on react-countdown: it ticks every second and calls onComplete once at the
// end (or at once when mounted after it). It counts to `date` (epoch ms or an ISO time) or, without one,
// `seconds` from when it mounts. The wrapper remounts it when date or runKey change.
export function Countdown({ date, seconds, display, intervalMs, onComplete }) {
  const [until] = useState(() => (date ? date : Date.now() + (seconds || 0) * 1000));
  return (
    <ReactCountdown
      date={until}
      intervalDelay={intervalMs}
      renderer={RENDERERS[display] || RENDERERS.dhms}
      onComplete={() => onComplete?.()}
    />
  );
}
