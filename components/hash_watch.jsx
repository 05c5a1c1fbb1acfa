import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

// Calls onChange with the hash (without "#") on mount, on in-app navigation and when the
// address bar's hash is edited; a hash-only change does not run the page's on_load.
export function HashWatch({ onChange }) {
  const location = useLocation();
  const latest = useRef(onChange);
  latest.current = onChange;

  useEffect(() => {
    latest.current?.(window.location.hash.replace(/^#/, ""));
  }, [location.hash]);

  useEffect(() => {
    const report = () => latest.current?.(window.location.hash.replace(/^#/, ""));
    window.addEventListener("hashchange", report);
    return () => window.removeEventListener("hashchange", report);
  }, []);

  return null;
}
