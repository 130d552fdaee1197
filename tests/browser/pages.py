"""A chromium page that keeps every request and console error, for the browser tests."""

# How long to wait for what a kernel computes or a lab loads: seconds on an idle machine,
# minutes when other jobs load it (make test must not fail at random on a busy machine).
# A wait ends as soon as its condition holds, so a long limit costs nothing when all is well.
KERNEL_WAIT_MS = 480_000
# A test that waits for kernels several times (run a notebook, reopen it, ...) may take
# longer than pytest-timeout's 600 s under load; it gets this many seconds instead.
SEVERAL_WAITS_S = 1800


def recorded_page(browser, address, viewport=(1280, 900)):
    """Open ``address`` in a fresh context (a window of ``viewport`` pixels);
    ``page.requests`` and ``page.problems`` collect every request made and every page or
    console error (tests assert on both)."""
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    # Every wait of the page (Playwright's default is 30 s) gets the load-proof limit.
    context.set_default_timeout(KERNEL_WAIT_MS)
    page = context.new_page()
    page.requests, page.problems = [], []
    page.on("request", lambda request: page.requests.append(request.url))
    page.on("pageerror", lambda error: page.problems.append(f"page error: {error}"))
    page.on(
        "console",
        lambda msg: page.problems.append(f"console: {msg.text}") if msg.type == "error" else None,
    )
    page.goto(address)
    return page


def settle(page, frames=3):
    """Wait for ``frames`` animation frames: the views redraw in frames, so this waits as long
    as the browser needs to draw, however busy the machine (a fixed sleep does not)."""
    page.evaluate(
        """(n) => new Promise((done) => {
            const next = (left) => (left ? requestAnimationFrame(() => next(left - 1)) : done());
            next(n);
        })""",
        frames,
    )
