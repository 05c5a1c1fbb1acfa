import { useId, useLayoutEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";

// A table wider than its column scrolls sideways here. While there is more to see, the region says so: a
// fade on the side that hides columns, and a hint above it (seen before a long table) that the region names as its description (a
// screen reader hears it with the region's name). It is a tab stop (arrow keys scroll it) only then.
export function ScrollRegion({ label, hint, children, id, className, ...rest }) {
  const region = useRef(null);
  const hintId = useId();
  const [more, setMore] = useState({ before: false, after: false });

  useLayoutEffect(() => {
    const node = region.current;
    if (!node) return undefined;
    const measure = () => {
      const hidden = node.scrollWidth - node.clientWidth;
      const before = node.scrollLeft > 1;
      const after = node.scrollLeft < hidden - 1;
      setMore((old) => (old.before === before && old.after === after ? old : { before, after }));
    };
    measure();
    // Rows arrive after the region is drawn, and a phone turns: both change what is hidden. The hint shows
    // in the same frame as the rows, so the table does not move once drawn.
    const remeasure = () => flushSync(measure);
    const resized = new ResizeObserver(remeasure);
    resized.observe(node);
    const changed = new MutationObserver(remeasure);
    changed.observe(node, { childList: true, subtree: true, characterData: true });
    node.addEventListener("scroll", measure, { passive: true });
    return () => {
      resized.disconnect();
      changed.disconnect();
      node.removeEventListener("scroll", measure);
    };
  }, []);

  const scrolls = more.before || more.after;
  return (
    <div
      className={className}
      data-scrolls={scrolls}
      data-more-before={more.before}
      data-more-after={more.after}
      {...rest}
    >
      {scrolls ? (
        <p className="scroll-hint" id={hintId}>
          <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
            <path
              d="M7 8l-4 4 4 4M17 8l4 4-4 4M3 12h18"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
          {hint}
        </p>
      ) : null}
      <div className="scroll-frame">
        <div
          ref={region}
          id={id}
          className="scroll-region"
          role="region"
          aria-label={label}
          aria-describedby={scrolls ? hintId : undefined}
          tabIndex={scrolls ? 0 : undefined}
        >
          {children}
        </div>
        <span className="scroll-fade scroll-fade-before" aria-hidden="true" />
        <span className="scroll-fade scroll-fade-after" aria-hidden="true" />
      </div>
    </div>
  );
}
