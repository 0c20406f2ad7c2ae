import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { MarkersMap, type MapMarker } from "@/components/map/markers-map";

function renderMap(markers: MapMarker[]) {
  return (
    <MarkersMap center={[28.05, 81.6167]} zoom={15} heightPx={500} markers={markers} fitToMarkers />
  );
}

describe("MarkersMap", () => {
  it("moves an existing marker in place instead of remounting it or the map", () => {
    const { container, rerender } = render(
      renderMap([{ id: "a", lat: 28.05, lng: 81.6167, label: "Ram" }]),
    );
    const mapEl = container.querySelector(".leaflet-container");
    const marker = container.querySelector<HTMLImageElement>(".leaflet-marker-icon");
    expect(marker).not.toBeNull();
    expect(marker!.alt).toBe("Ram");
    const before = marker!.style.cssText;

    rerender(renderMap([{ id: "a", lat: 28.06, lng: 81.63, label: "Ram" }]));

    expect(container.querySelector(".leaflet-container")).toBe(mapEl);
    const after = container.querySelectorAll(".leaflet-marker-icon");
    expect(after).toHaveLength(1);
    expect(after[0]).toBe(marker);
    expect(marker!.style.cssText).not.toBe(before);
  });

  it("uses bundled marker images, not a CDN", () => {
    const { container } = render(renderMap([{ id: "a", lat: 28.05, lng: 81.6167, label: "Ram" }]));
    const src = container
      .querySelector<HTMLImageElement>(".leaflet-marker-icon")!
      .getAttribute("src")!;
    expect(src).toMatch(/marker-icon/);
    expect(src).not.toMatch(/^https?:/);
  });

  it("draws an approximate circle only for rounded positions", () => {
    const { container } = render(
      renderMap([
        { id: "a", lat: 28.05, lng: 81.6167, label: "Exact" },
        { id: "b", lat: 28.06, lng: 81.62, label: "Rounded", exact: false },
      ]),
    );
    expect(container.querySelectorAll(".leaflet-marker-icon")).toHaveLength(2);
    expect(container.querySelectorAll("path.leaflet-interactive")).toHaveLength(1);
  });
});
