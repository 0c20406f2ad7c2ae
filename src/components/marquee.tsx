import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from "react";
import "@/components/marquee.css";

/**
 * Text scrolling right-to-left at a constant speed (spec §9: 100, read as px/s), as a CSS animation
 * whose duration follows the measured distance. Static and wrapped under prefers-reduced-motion.
 */
export function Marquee({
  children,
  speedPxPerSec,
  className = "",
  lang,
}: {
  children: ReactNode;
  speedPxPerSec: number;
  className?: string;
  lang?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const track = useRef<HTMLSpanElement>(null);
  const [size, setSize] = useState<{ box: number; text: number } | null>(null);

  // Measured when the observer first reports, after the browser's own layout: measuring here at once
  // would force a layout of the whole page inside the first render's task (~100 ms at 4× CPU).
  useEffect(() => {
    const measure = () => {
      if (box.current && track.current)
        setSize({ box: box.current.clientWidth, text: track.current.scrollWidth });
    };
    const observer = new ResizeObserver(measure);
    if (box.current) observer.observe(box.current);
    if (track.current) observer.observe(track.current);
    return () => observer.disconnect();
  }, []);

  const style = size
    ? ({
        "--marquee-from": `${size.box}px`,
        "--marquee-to": `${-size.text}px`,
        "--marquee-duration": `${(size.box + size.text) / speedPxPerSec}s`,
      } as CSSProperties)
    : undefined;

  return (
    <div ref={box} className={`gs-marquee overflow-hidden ${className}`} lang={lang}>
      <span
        ref={track}
        className={`${size ? "gs-marquee-track" : ""} inline-block whitespace-nowrap`}
        style={style}
      >
        {children}
      </span>
    </div>
  );
}
