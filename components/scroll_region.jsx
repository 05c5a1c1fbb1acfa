import { useEffect, useId, useRef, useState } from "react";

// A table wider than its column scrolls sideways here. While there is more to see, the region says so: a
// fade on the side that hides columns, and a hint under it that the region names as its description (a
// screen reader hears it with the region's name). It is a tab stop (arrow keys scroll it) only then.
export function ScrollRegion({ label, hint, children, id, className, ...rest }) {
  const region = useRef(null);
  const hintId = useId();
  const [more, setMore] = useState({ before: false, after: false });

  useEffect(() => {
    const node = region.current;
    if (!node) return undefined;
    const measure = () => {
      const hidden = node.scrollWidth - node.clientWidth;
      const before = node.scrollLeft > 1;
      const after = node.scrollLeft < hidden - 1;
      setMore((old) => (old.before === before && old.after === after ? old : { before, after }));
    };
    measure();
    // Rows arrive after the region is drawn, and a phone turns: both change what is hidden.
    const resized = new ResizeObserver(measure);
    resized.observe(node);
    const changed = new MutationObserver(measure);
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
    </div>
  );
}
