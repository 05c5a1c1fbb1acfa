import { useEffect, useRef, useState } from "react";

// Counts `seconds` down from when it mounts (or from when runKey changes), shows m:ss unless
// hidden, and calls onDone once at zero. Unmounting it cancels it.
export function Countdown({ seconds, runKey, hidden, onDone }) {
  const [deadline, setDeadline] = useState(() => Date.now() + seconds * 1000);
  const [now, setNow] = useState(() => Date.now());
  const done = useRef(false);
  const latestOnDone = useRef(onDone);
  latestOnDone.current = onDone;

  useEffect(() => {
    done.current = false;
    setDeadline(Date.now() + seconds * 1000);
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [seconds, runKey]);

  const left = Math.max(0, Math.ceil((deadline - now) / 1000));
  useEffect(() => {
    if (left === 0 && !done.current) {
      done.current = true;
      latestOnDone.current?.();
    }
  }, [left]);

  if (hidden) return null;
  const minutes = Math.floor(left / 60);
  const rest = String(left % 60).padStart(2, "0");
  return <span role="timer">{`${minutes}:${rest}`}</span>;
}
