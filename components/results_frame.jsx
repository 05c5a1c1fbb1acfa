import { useEffect, useRef } from "react";

const TYPES = new Set(["series", "single", "events"]);

// The results service in a frame. Its links post {type, eventId, dayId} here instead of navigating the
// frame; only messages from that frame and from its origin (empty: the site's own) reach onNavigate.
// The frame is keyed by its address, so a new address replaces it without a second history entry;
// our ref comes last, as the frame's messages are checked against it.
export function ResultsFrame({ src, origin, onNavigate, ...props }) {
  const frame = useRef(null);
  const latest = useRef(onNavigate);
  latest.current = onNavigate;

  useEffect(() => {
    const allowed = origin || window.location.origin;
    const listen = (event) => {
      const data = event.data;
      if (event.origin !== allowed || event.source !== frame.current?.contentWindow) return;
      if (!data || typeof data !== "object" || !TYPES.has(data.type)) return;
      latest.current?.(data.type, String(data.eventId ?? ""), String(data.dayId ?? ""));
    };
    window.addEventListener("message", listen);
    return () => window.removeEventListener("message", listen);
  }, [origin]);

  return <iframe {...props} key={src} ref={frame} src={src} />;
}
