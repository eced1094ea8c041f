"""Renders a coverage map SVG (`ble sim map`'s drawing) in headless Chromium and reads back
pixels, as MapPixelBrowserTests runs it.

Usage: check_map_pixels.py MAP.svg SAMPLES.json

SAMPLES.json is a list of {"x": px, "y": px, "rgb": [r, g, b], "what": text}: where to look in
the drawing and the colour the radio model's band gives there (white where nothing is heard).
The page parses the SVG, removes the layers drawn over the cells (devices, routes, obstacles,
detection contours, frame), draws it on a canvas at its own size and reads each sample's pixel.
Prints one line per mismatch (at most 20), then RESULT {"samples": N, "mismatches": M}; exits 1
when any pixel differs from its colour by more than 3 in a channel.
"""

import json
import sys

import browser_support

RENDER = """
const [svgText, samples, done] = arguments;
const svg = new DOMParser().parseFromString(svgText, "image/svg+xml").documentElement;
for (const id of ["devices", "routes", "obstacles", "detection", "frame"]) svg.querySelector("#" + id)?.remove();
const width = +svg.getAttribute("width"), height = +svg.getAttribute("height");
const image = new Image();
image.onerror = () => done({error: "the SVG did not load as an image"});
image.onload = () => {
  const canvas = document.createElement("canvas");
  canvas.width = width; canvas.height = height;
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0, width, height);
  done({pixels: samples.map(s => Array.from(context.getImageData(Math.floor(s.x), Math.floor(s.y), 1, 1).data.slice(0, 3)))});
};
image.src = "data:image/svg+xml;base64," + btoa(unescape(encodeURIComponent(new XMLSerializer().serializeToString(svg))));
"""


def main():
    with open(sys.argv[1], encoding="utf-8") as file:
        svg = file.read()
    with open(sys.argv[2], encoding="utf-8") as file:
        samples = json.load(file)
    driver = browser_support.start_chromium(window=None, console=False)
    try:
        driver.set_script_timeout(60)
        driver.get("about:blank")
        answer = driver.execute_async_script(RENDER, svg, samples)
    finally:
        driver.quit()
    if "error" in answer:
        print("FAIL " + answer["error"], flush=True)
        sys.exit(1)
    mismatches = 0
    for sample, pixel in zip(samples, answer["pixels"]):
        if max(abs(a - b) for a, b in zip(pixel, sample["rgb"])) > 3:
            mismatches += 1
            if mismatches <= 20:
                print("MISMATCH %s at (%.1f, %.1f): drawn %s, model %s" % (sample["what"], sample["x"], sample["y"], pixel, sample["rgb"]), flush=True)
    print("RESULT " + json.dumps({"samples": len(samples), "mismatches": mismatches}), flush=True)
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
