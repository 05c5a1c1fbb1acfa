import { Children, useCallback, useEffect, useState } from "react";
import useEmblaCarousel from "embla-carousel-react";
import Autoplay from "embla-carousel-autoplay";

// The support page's article carousel on Embla: one card per view under 600 px, two from 600, three from
// 1000, 20 px between cards, autoplay that pauses while hovered or focused, previous/next buttons and a
// dot per position. The root's data-index is the position shown (tests and screen readers follow it).
const STYLE = `
.carousel-viewport { overflow: hidden; }
.carousel-track { display: flex; touch-action: pan-y pinch-zoom; margin-left: calc(var(--carousel-gap) * -1); }
.carousel-slide { flex: 0 0 100%; min-width: 0; padding-left: var(--carousel-gap); box-sizing: border-box; }
@media (min-width: 600px) { .carousel-slide { flex-basis: 50%; } }
@media (min-width: 1000px) { .carousel-slide { flex-basis: 33.3333%; } }
.carousel-controls { display: flex; align-items: center; justify-content: space-between; gap: 12px; margin-top: 16px; }
.carousel-dots { display: flex; gap: 0; flex-wrap: wrap; }
.carousel-dot { box-sizing: border-box; width: 24px; height: 24px; padding: 7px; background-clip: content-box;
  border-radius: 999px; border: 0; cursor: pointer; background-color: #D4DAE5; }
.carousel-dot[aria-current="true"] { background-color: #FF5A1F; width: 38px; }
.carousel-buttons { display: flex; gap: 8px; }
.carousel-button { width: 40px; height: 40px; border-radius: 999px; border: 1px solid #E3E7EF; background: #fff;
  color: #111827; cursor: pointer; font-size: 18px; line-height: 1; display: inline-flex; align-items: center; justify-content: center; }
.carousel-button:hover:not(:disabled) { border-color: #FF5A1F; color: #9A3412; }
.carousel-button:disabled { opacity: 0.4; cursor: default; }
`;

// Riders who ask their system for reduced motion get the buttons and dots but no autoplay.
const reducedMotion = () =>
  typeof window !== "undefined" && window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

export function Carousel({ children, label, gap = 20, delayMs = 4000, id }) {
  const [viewportRef, embla] = useEmblaCarousel({ align: "start", loop: true }, [
    Autoplay({
      delay: delayMs,
      playOnInit: !reducedMotion(),
      stopOnInteraction: false,
      stopOnMouseEnter: true,
      stopOnFocusIn: true,
    }),
  ]);
  const [index, setIndex] = useState(0);
  const [snaps, setSnaps] = useState([]);
  const [canScroll, setCanScroll] = useState(false);

  const update = useCallback((api) => {
    setIndex(api.selectedScrollSnap());
    setSnaps(api.scrollSnapList());
    setCanScroll(api.canScrollNext() || api.canScrollPrev());
  }, []);

  useEffect(() => {
    if (!embla) return undefined;
    update(embla);
    embla.on("select", update).on("reInit", update);
    return () => {
      embla.off("select", update).off("reInit", update);
    };
  }, [embla, update]);

  const slides = Children.toArray(children);
  return (
    <div id={id} className="carousel" role="region" aria-roledescription="carousel" aria-label={label}
      data-index={index} style={{ "--carousel-gap": `${gap}px` }}>
      <style>{STYLE}</style>
      <div className="carousel-viewport" ref={viewportRef}>
        <div className="carousel-track">
          {slides.map((slide, n) => (
            <div className="carousel-slide" key={n} role="group" aria-roledescription="slide"
              aria-label={`${n + 1} of ${slides.length}`}>
              {slide}
            </div>
          ))}
        </div>
      </div>
      {canScroll && (
        <div className="carousel-controls">
          <div className="carousel-dots">
            {snaps.map((_, n) => (
              <button key={n} type="button" className="carousel-dot" aria-label={`Go to slide ${n + 1}`}
                aria-current={n === index ? "true" : "false"} onClick={() => embla?.scrollTo(n)} />
            ))}
          </div>
          <div className="carousel-buttons">
            <button type="button" className="carousel-button" aria-label="Previous articles"
              onClick={() => embla?.scrollPrev()}>‹</button>
            <button type="button" className="carousel-button" aria-label="Next articles"
              onClick={() => embla?.scrollNext()}>›</button>
          </div>
        </div>
      )}
    </div>
  );
}
