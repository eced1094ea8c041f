"""Drives `ble dashboard`'s page in headless Chromium over a world of a thousand walking
beacons and the bus fleet's gateways, as DashboardCrowdBrowserTests runs it.

Usage: check_dashboard_crowd.py URL COUNT

Checks, each waited for: the page connects; the map has a marker for each of the COUNT
walkers; 30 more updates are drawn after that, and a walker's marker has moved; the RSSI plot
draws at most 40 series whatever the number heard; the office view lists the identities the
gateways heard (one /api/locations call a round); the console holds no error. Then it reports
how long the newest update took from the server's tick to the screen (last, and at most over
those 30 updates) — a figure, not a pass mark. Prints one line per check and RESULT {...} at
the end; exits 1 with FAIL <why> at the first check that does not hold.
"""

import json
import sys

import browser_support
from browser_support import fail

WAIT = 120  # seconds any one condition may take on a loaded machine


def wait_for(driver, what, script):
    """`browser_support.wait_for` with this check's patience."""
    return browser_support.wait_for(driver, what, script, WAIT)


def main():
    url, count = sys.argv[1], int(sys.argv[2])
    driver = browser_support.start_chromium()
    result = {}
    try:
        driver.get(url)
        wait_for(driver, "the page connecting", "return document.getElementById('status').dataset.state === 'connected'")
        print("connected", flush=True)
        markers = wait_for(driver, "a marker for each of the %d walkers" % count,
                           "const n = document.querySelectorAll('#live [data-name^=\"walker \"]').length;"
                           "return n >= %d ? n : null" % count)
        result["walkerMarkers"] = markers
        print("map has %d walker markers" % markers, flush=True)
        start = int(driver.execute_script("return +(document.body.dataset.updates || 0)"))
        before = driver.execute_script("return document.querySelector('#live [data-name=\"walker 0\"]').dataset.x")
        driver.execute_script("document.body.dataset.maxLatency = 0")
        drawn = wait_for(driver, "30 more updates drawn",
                         "const n = +(document.body.dataset.updates || 0); return n >= %d ? n : null" % (start + 30))
        wait_for(driver, "walker 0's marker moving",
                 "return document.querySelector('#live [data-name=\"walker 0\"]').dataset.x !== '%s'" % before)
        result["updates"] = drawn - start
        print("%d updates drawn; walker 0 moved" % (drawn - start), flush=True)
        series = driver.execute_script("return [document.querySelectorAll('#rssi polyline').length, +document.getElementById('rssi').dataset.series]")
        if series[0] > 40:
            fail("the RSSI plot draws %d series, more than 40" % series[0])
        result["rssiSeries"] = {"drawn": series[0], "heard": series[1]}
        print("RSSI plot draws %d of %d series heard" % tuple(series), flush=True)
        office = wait_for(driver, "the office view listing the walkers the gateways heard",
                          "const n = document.querySelectorAll('#office tbody tr').length; return n > 10 ? n : null")
        result["officeRows"] = office
        print("office view lists %d identities" % office, flush=True)
        errors = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
        if errors:
            fail("the console has errors: " + json.dumps(errors))
        print("console: no errors", flush=True)
        latency = driver.execute_script("return [+document.body.dataset.latency, +document.body.dataset.maxLatency]")
        result["latencyMilliseconds"] = {"last": latency[0], "max": latency[1]}
        print("from a server tick to the screen with %d walkers: last %d ms, at most %d ms over those updates" % (count, latency[0], latency[1]), flush=True)
    finally:
        driver.quit()
    print("RESULT " + json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
