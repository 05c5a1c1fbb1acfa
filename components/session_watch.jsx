import { useEffect, useRef } from "react";

// Calls onCheck every intervalMs, when the window gets focus and when the tab becomes visible.
export function SessionWatch({ intervalMs, onCheck }) {
  const latest = useRef(onCheck);
  latest.current = onCheck;

  useEffect(() => {
    const check = () => latest.current?.();
    const onVisibility = () => {
      if (document.visibilityState === "visible") check();
    };
    const timer = setInterval(check, intervalMs || 120000);
    window.addEventListener("focus", check);
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      clearInterval(timer);
      window.removeEventListener("focus", check);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [intervalMs]);

  return null;
}
