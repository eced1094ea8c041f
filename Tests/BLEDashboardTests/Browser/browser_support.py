"""What the browser checks share: headless Chromium (Debian's chromium and chromium-driver,
or $CHROMIUM and $CHROMEDRIVER) through Selenium, and waiting for a condition on the page."""

import os
import sys

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait


def start_chromium(window="1400,1100", console=True):
    """Headless Chromium with a window of `window` pixels (None: Chromium's default), keeping
    the page's console messages when `console` is true."""
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    arguments = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
    if window:
        arguments.append("--window-size=" + window)
    for argument in arguments:
        options.add_argument(argument)
    if console:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


def fail(why):
    """Prints FAIL and the reason, and exits 1."""
    print("FAIL " + why, flush=True)
    sys.exit(1)


def wait_for(driver, what, script, seconds, shown=None):
    """Waits up to `seconds` until `script` (JavaScript returning a value) returns something
    truthy and returns it; otherwise fails saying `what` did not happen, and what the element
    with the id `shown` showed."""
    try:
        return WebDriverWait(driver, seconds, poll_frequency=0.2).until(lambda d: d.execute_script(script))
    except TimeoutException:
        seen = ""
        if shown:
            seen = "; #%s showed: %s" % (shown, driver.execute_script("return document.getElementById('%s').innerText" % shown))
        fail(what + " did not happen within %d s" % seconds + seen)
