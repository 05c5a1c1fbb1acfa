import { useEffect, useRef } from "react";

// The ALTCHA widget (a web component). Reports the solved payload, reports when it is
// cleared, and resets whenever resetKey changes on a loaded page. The key a page load brings is the
// tab's last one: resetting then would undo a tick the rider gave while the page was loading. For the
// same reason a tick given before the page has loaded is reported again once it has: the page's load,
// which clears the tab's last payload, reaches the server after it on a slow connection.
export function HumanCheck({ challengeUrl, resetKey, hydrated, label, onVerified, onCleared }) {
  const ref = useRef(null);
  const handlers = useRef({ onVerified, onCleared });
  handlers.current = { onVerified, onCleared };
  const earlyPayload = useRef("");
  const loaded = useRef(hydrated);
  loaded.current = hydrated;

  useEffect(() => {
    import("altcha");
  }, []);

  useEffect(() => {
    const widget = ref.current;
    if (!widget) return undefined;
    const onStateChange = (event) => {
      const { state, payload } = event.detail || {};
      if (state === "verified" && payload) {
        earlyPayload.current = loaded.current ? "" : payload;
        handlers.current.onVerified?.(payload);
      } else if (state !== "verifying") {
        earlyPayload.current = "";
        handlers.current.onCleared?.();
      }
    };
    widget.addEventListener("statechange", onStateChange);
    return () => widget.removeEventListener("statechange", onStateChange);
  }, []);

  useEffect(() => {
    if (resetKey && hydrated && ref.current?.reset) ref.current.reset();
  }, [resetKey]);

  useEffect(() => {
    if (hydrated && earlyPayload.current) {
      handlers.current.onVerified?.(earlyPayload.current);
      earlyPayload.current = "";
    }
  }, [hydrated]);

  return (
    <altcha-widget
      ref={ref}
      challengeurl={challengeUrl}
      hidelogo
      hidefooter
      strings={JSON.stringify({ label: label || "I'm not a robot" })}
    />
  );
}
