"""The report in a real browser: headless Chromium loads a small report and a probe script reports what
it rendered (element ids, links, whether every image decoded, the page width); a screenshot must not be
blank.

Chromium is required: `make test` (scripts/ensure_chromium.sh) installs it. Only an explicit
``CARDSIM_NO_BROWSER=1`` skips these tests; a missing browser otherwise fails them with the command that
installs it.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlparse

import matplotlib.image
import numpy as np
import pytest

from analysis import report

if os.environ.get("CARDSIM_NO_BROWSER") == "1":
    pytest.skip("CARDSIM_NO_BROWSER=1: the browser check was switched off explicitly", allow_module_level=True)

WIDTH = 1280
PROBE = """<script>
window.addEventListener("load", function () {
  var root = document.documentElement;
  var result = {
    ids: Array.from(document.querySelectorAll("[id]")).map(function (e) { return e.id; }),
    sections: Array.from(document.querySelectorAll("section")).map(function (s) {
      var h = s.querySelector("h2"); return [s.id, h ? h.textContent : null]; }),
    links: Array.from(document.querySelectorAll("a[href]")).map(function (a) { return a.getAttribute("href"); }),
    images: Array.from(document.images).map(function (i) {
      return {src: i.getAttribute("src"), alt: i.alt, loaded: i.complete && i.naturalWidth > 0,
              width: i.naturalWidth, shown: i.getBoundingClientRect().width}; }),
    overflowing: Array.from(document.querySelectorAll("body *")).filter(function (e) {
      return e.getBoundingClientRect().right > root.clientWidth + 1; }).map(function (e) { return e.tagName; }),
    scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, height: root.scrollHeight
  };
  var out = document.createElement("pre");
  out.id = "cardsim-probe";
  out.textContent = JSON.stringify(result);
  document.body.appendChild(out);
});
</script>"""


def chromium() -> str:
    """The Chromium binary (CARDSIM_CHROMIUM, else chromium on the PATH); fails when there is none."""
    for name in (os.environ.get("CARDSIM_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    pytest.fail("headless Chromium is needed for the report check: 'apt-get install -y chromium' "
                "(or set CARDSIM_NO_BROWSER=1 to skip it explicitly)")


def _browser(page: Path, profile: Path, *args: str) -> subprocess.CompletedProcess:
    command = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--disable-dev-shm-usage", f"--user-data-dir={profile}", f"--window-size={WIDTH},1000", *args,
               page.resolve().as_uri()]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"chromium failed ({done.returncode}): {done.stderr[-2000:]}"
    return done


def probe(folder: Path, profile: Path) -> dict:
    """Load ``folder/index.html`` with the probe script (as a hidden copy next to it, so the images
    resolve the same way) and return what the browser reports."""
    source = (folder / "index.html").read_text(encoding="utf-8")
    assert source.count("</body>") == 1
    page = folder / ".probe.html"
    page.write_text(source.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    try:
        dom = _browser(page, profile, "--virtual-time-budget=10000", "--dump-dom").stdout
    finally:
        page.unlink()
    found = re.search(r'<pre id="cardsim-probe">(.*?)</pre>', dom, re.S)
    assert found, "the probe script did not run: " + dom[-500:]
    return json.loads(html.unescape(found.group(1)))


@pytest.fixture(scope="module")
def built(small_report):
    """The folder of the session's small report (conftest)."""
    return small_report.parent


@pytest.fixture(scope="module")
def rendered(built, tmp_path_factory):
    return probe(built, tmp_path_factory.mktemp("profile"))


def test_every_section_and_toc_entry_is_in_the_dom(built, rendered):
    source = (built / "index.html").read_text(encoding="utf-8")
    toc = re.search(r'<nav class="toc">(.*?)</nav>', source, re.S).group(1)
    anchors = re.findall(r'href="#([^"]+)"', toc)
    ids = set(rendered["ids"])
    assert anchors and set(anchors) <= ids
    sections = dict(rendered["sections"])
    assert {"intervals", "methods"} <= set(sections)
    assert len(sections) == len(rendered["sections"]) == len(report.game_sections()) + 2  # a section per game
    assert all(heading for heading in sections.values())
    assert set(sections) <= set(anchors)  # every section is listed in the contents


def test_every_link_resolves(built, rendered):
    ids = set(rendered["ids"])
    assert rendered["links"]
    for href in rendered["links"]:
        parsed = urlparse(href)
        assert parsed.scheme in ("", "file"), f"the report links outside itself: {href}"
        if parsed.path:
            assert (built / unquote(parsed.path)).is_file(), f"broken link {href}"
        if parsed.fragment:
            assert parsed.fragment in ids, f"link to a missing anchor {href}"


def test_every_image_loads(built, rendered):
    images = rendered["images"]
    assert len(images) == len(list(built.glob("*.png"))) > 0
    for image in images:
        assert image["loaded"], f"{image['src']} did not load"
        assert image["alt"] and image["width"] > 100 and image["shown"] > 100


def test_nothing_is_wider_than_the_window(rendered):
    assert rendered["scrollWidth"] <= rendered["clientWidth"], rendered["overflowing"][:5]
    assert rendered["height"] > 2000


def test_probe_notices_a_missing_image(built, tmp_path):
    """The checks above can fail: with one chart deleted the browser reports it as not loaded."""
    copy = tmp_path / "copy"
    shutil.copytree(built, copy)
    missing = sorted(copy.glob("*.png"))[0]
    missing.unlink()
    images = probe(copy, tmp_path / "profile")["images"]
    assert [i["src"] for i in images if not i["loaded"]] == [missing.name]


def test_screenshot_is_not_blank(built, tmp_path):
    shot = tmp_path / "shot.png"
    _browser(built / "index.html", tmp_path / "profile", f"--screenshot={shot}")
    pixels = matplotlib.image.imread(shot)[..., :3]
    assert pixels.shape[1] == WIDTH
    dark = (pixels.mean(axis=2) < 0.3).mean()
    assert 0.005 < dark < 0.5  # text, not an empty or a black page
    assert np.ptp(pixels.reshape(-1, 3), axis=0).min() > 0.5  # colours: the headings' rule, links
