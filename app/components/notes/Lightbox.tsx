import { useEffect, useRef, useState } from "react";
import { Icon } from "../Icon";

/**
 * A note's images, one at a time, over the page: a modal dialog that keeps focus inside, closes on
 * Escape (or the backdrop) and steps with the arrow keys. Loaded only when an image is opened.
 */
export default function Lightbox({
  images,
  start,
  onClose,
}: {
  images: { src: string; alt: string }[];
  start: number;
  onClose: () => void;
}) {
  const [i, setI] = useState(start);
  const ref = useRef<HTMLDivElement>(null);
  const n = images.length;
  const step = (d: number) => setI((x) => (x + d + n) % n);

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    ref.current?.querySelector<HTMLElement>("button")?.focus();
    return () => before?.focus?.();
  }, []);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === "Escape") onClose();
    else if (e.key === "ArrowRight" && n > 1) step(1);
    else if (e.key === "ArrowLeft" && n > 1) step(-1);
    else if (e.key === "Tab") {
      const f = Array.from(ref.current?.querySelectorAll<HTMLElement>("button") ?? []);
      const at = f.indexOf(document.activeElement as HTMLElement);
      const next = (at + (e.shiftKey ? -1 : 1) + f.length) % f.length;
      f[next]?.focus();
    } else return;
    e.preventDefault();
  };

  const image = images[i];
  return (
    <div className="overlay lightbox">
      <button type="button" className="overlay-bg" tabIndex={-1} aria-hidden="true" onClick={onClose} />
      <div
        className="lightbox-frame"
        role="dialog"
        aria-modal="true"
        aria-label={n > 1 ? `Image ${i + 1} of ${n}` : "Image"}
        ref={ref}
        onKeyDown={onKeyDown}
      >
        <button type="button" className="icon-btn lightbox-close" aria-label="Close" onClick={onClose}>
          <Icon name="x" size={22} />
        </button>
        <img src={image.src} alt={image.alt} />
        {image.alt && <p className="lightbox-alt">{image.alt}</p>}
        {n > 1 && (
          <>
            <button
              type="button"
              className="icon-btn lightbox-prev"
              aria-label="Previous image"
              onClick={() => step(-1)}
            >
              <Icon name="chevron-left" size={28} />
            </button>
            <button type="button" className="icon-btn lightbox-next" aria-label="Next image" onClick={() => step(1)}>
              <Icon name="chevron-right" size={28} />
            </button>
          </>
        )}
      </div>
    </div>
  );
}
